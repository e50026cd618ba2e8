/* GIO's GDBus, for the notification service (`xtoast --notification-service`) only: a plain
 * toast never calls into it (GIO is loaded all the same: Pango brings it). Macros and
 * variadic functions do not import into Swift: what the service needs of them is here. */
#include <gio/gio.h>
#include <glib-unix.h>

/* G_VARIANT_TYPE ("s") and friends are casts of a type string. */
static inline const GVariantType *xtoast_variant_type(const char *text) { return (const GVariantType *)text; }

/* Registers `info` at `path` with one method handler. GDBus keeps the table for as long as
 * the object is registered: a weak global, one per process (never a static inside an inline
 * function: see CX11/shim.h). */
__attribute__((weak)) GDBusInterfaceVTable xtoast_service_vtable = {0};
static inline guint xtoast_register_object(GDBusConnection *connection, const char *path, GDBusInterfaceInfo *info,
                                           GDBusInterfaceMethodCallFunc call, GDBusInterfaceGetPropertyFunc get,
                                           GError **error) {
    xtoast_service_vtable.method_call = call;
    xtoast_service_vtable.get_property = get;
    return g_dbus_connection_register_object(connection, path, info, &xtoast_service_vtable, NULL, NULL, error);
}

/* g_signal_connect is a macro: the connection's "closed" signal, with its handler. */
static inline void xtoast_on_connection_closed(GDBusConnection *connection,
                                               void (*handler)(GDBusConnection *, gboolean, GError *, gpointer)) {
    g_signal_connect_data(connection, "closed", G_CALLBACK(handler), NULL, NULL, 0);
}
