#!/usr/bin/env python3
"""Notify → first paint: an application's notification (libnotify's notify-send as the client)
through `xtoast --notification-service` and through dunst, each warm (already running) and
activated by the session bus (cold). A burst of BURST notifications of one application within a
second, through the service (which joins them into one toast) and through dunst (one popup each,
in its one window): how long until no notification window is on the screen. Then a flood through
the service: 2,000 notifications of 150 KB sent at once, answered how soon, and the service's
peak resident memory. Uses bench.py's server and its firstpaint and calmwatch watchers; run after
`make release` (`python3 .ci/bench/notifications.py`, RUNS=20 by default). No compositor: the
first painted pixel is the same moment for both either way.
"""
import os, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

IDLE = 2.0  # the service's idle time here (XTOAST_NOTIFICATION_IDLE)
# The burst row (issue 29): BURST notifications of one application, BURST_SPACING s apart (all
# within a second), each with the same explicit expire_timeout for both servers, in the first
# BURST_RUNS runs. The screen is calm once no notification window has been mapped for BURST_QUIET
# ms after the last one went.
BURST, BURST_SPACING, BURST_TIMEOUT, BURST_RUNS, BURST_QUIET = 20, 0.05, 2000, 5, 1500


def xtoast_bus(server):
    """A bus of its own whose only Notifications service is xtoast's (the bench's own bus has
    dunst's service file among the system's)."""
    services = f"{bench.WORK}/services"
    os.makedirs(services, exist_ok=True)
    with open(f"{services}/xtoast.service", "w") as f:
        f.write(f"[D-BUS Service]\nName=org.freedesktop.Notifications\nExec={bench.XTOAST} --notification-service\n")
    with open(f"{bench.WORK}/bus.conf", "w") as f:
        f.write(f"""<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><servicedir>{services}</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
<limit name="max_replies_per_connection">50000</limit><limit name="max_incoming_bytes">1000000000</limit>
<limit name="max_outgoing_bytes">1000000000</limit></busconfig>""")
    env = dict(server.env, XTOAST_NOTIFICATION_IDLE=str(IDLE))
    out = subprocess.run(["dbus-daemon", f"--config-file={bench.WORK}/bus.conf", "--fork", "--print-address=1", "--print-pid=1"],
                         env=env, stdout=subprocess.PIPE, stderr=open(f"{bench.WORK}/bus.log", "w"), text=True,
                         check=True).stdout.split()
    return dict(server.env, DBUS_SESSION_BUS_ADDRESS=out[0]), int(out[1])


def has_owner(env):
    out = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"],
                         env=env, capture_output=True, text=True).stdout
    return "true" in out


def wait_until(condition, timeout=10):
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)


FLOOD = r"""
import dbus, dbus.mainloop.glib, time
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                        "org.freedesktop.Notifications")
answered, failed = [0], [0]
start = time.monotonic()
for n in range(2000):
    server.Notify("flood", 0, "", "Flood %d" % n, "x" * 150000, [], {}, 100,
                  reply_handler=lambda id: answered.__setitem__(0, answered[0] + 1),
                  error_handler=lambda e: failed.__setitem__(0, failed[0] + 1))
context = GLib.MainContext.default()
while answered[0] + failed[0] < 2000 and time.monotonic() < start + 120:
    context.iteration(True)
took = time.monotonic() - start
pid = int(bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").GetConnectionUnixProcessID(
    "org.freedesktop.Notifications", dbus_interface="org.freedesktop.DBus"))
status = dict(l.split(":", 1) for l in open("/proc/%d/status" % pid))
print(answered[0], failed[0], "%.2f" % took, status["VmHWM"].split()[0], status["VmRSS"].split()[0])
"""


BURST_SENDER = r"""
import dbus, sys, time
bus = dbus.SessionBus()
server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                        "org.freedesktop.Notifications")
count, spacing, timeout = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
start = time.monotonic()
for n in range(count):
    time.sleep(max(0.0, start + n * spacing - time.monotonic()))
    server.Notify("Burst", 0, "", "Message %d" % (n + 1), "The text of message %d." % (n + 1), [], {}, timeout)
print("sent %.3f" % (start * 1000))
"""


def burst(env, results):
    """BURST notifications of one application, from one client on `env`'s bus, watched by
    calmwatch: the first Notify → the last notification window gone (seconds), and the windows
    mapped on the way. Both clocks are CLOCK_MONOTONIC."""
    out = subprocess.run([f"{bench.WORK}/calmwatch", str(BURST_QUIET), "/usr/bin/python3", "-c", BURST_SENDER, str(BURST),
                          str(BURST_SPACING), str(BURST_TIMEOUT)], env=env, capture_output=True, text=True).stdout
    fields = dict(line.split(None, 1) for line in out.splitlines() if " " in line)
    if "sent" in fields and "calm" in fields:
        results["calm"].append((float(fields["calm"]) - float(fields["sent"])) / 1000)
        results["windows"].append(int(fields["windows"]))


def flood(env):
    """The flood through the service: answered, failed, seconds, peak and current RSS (kB)."""
    # Debian's python3-dbus is importable from /usr/bin/python3 only.
    return subprocess.run(["/usr/bin/python3", "-c", FLOOD], env=env, capture_output=True, text=True, timeout=180).stdout.split()


def paint(env):
    return bench.first_paint_once(["notify-send", "-t", "30000", bench.TEXT], env)


def main():
    runs = int(os.environ.get("RUNS", "20"))
    bench.XTOAST = os.path.abspath(bench.XTOAST)
    bench.build()
    server = bench.Server(False)
    results = {"xtoast warm": [], "xtoast activated": [], "dunst warm": [], "dunst activated": []}
    bursts = {"xtoast": {"calm": [], "windows": []}, "dunst": {"calm": [], "windows": []}}
    bus_pid = None
    flooded = []
    try:
        # dunst, activated by the bench's bus from its own service file, needs the display.
        subprocess.run(["dbus-update-activation-environment", "DISPLAY"], env=server.env, check=True)
        xenv, bus_pid = xtoast_bus(server)
        dismiss = lambda: subprocess.run([bench.XTOAST, "--dismiss-all"], env=server.env)
        for run in range(runs):
            # xtoast, activated: no service on the bus.
            wait_until(lambda: not has_owner(xenv))
            results["xtoast activated"].append(paint(xenv))
            dismiss()
            # xtoast, warm: the service has just shown (and ended) a notification.
            # (-w: its toast is gone from the queue before the one measured is sent.)
            subprocess.run(["notify-send", "-w", "-t", "1", "warm"], env=xenv)
            results["xtoast warm"].append(paint(xenv))
            dismiss()
            if run < BURST_RUNS:
                burst(xenv, bursts["xtoast"])
                dismiss()
            # dunst, warm, then activated after it was stopped.
            results["dunst warm"].append(paint(server.env))
            server.close_notifications()
            if run < BURST_RUNS:
                burst(server.env, bursts["dunst"])
                server.close_notifications()
            server.dunst.terminate()
            server.dunst.wait()
            wait_until(lambda: not has_owner(server.env))
            results["dunst activated"].append(paint(server.env))
            server.close_notifications()
            # The bus started that dunst: stopped by its pid, and the bench's own started again.
            out = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                  "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                                  "org.freedesktop.Notifications"], env=server.env, capture_output=True, text=True).stdout
            if "uint32" in out:
                os.kill(int(out.split()[-1].strip(",)")), 15)
                wait_until(lambda: not has_owner(server.env))
            server.dunst = subprocess.Popen(["dunst"], env=server.env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
            wait_until(lambda: has_owner(server.env))
            time.sleep(0.3)
            bench.progress(f"notifications: run {run + 1} of {runs}")
        wait_until(lambda: not has_owner(xenv))
        flooded = flood(xenv)
    finally:
        if bus_pid:
            os.kill(bus_pid, 15)
        server.stop()
    print("| Notify → first paint (ms, no compositor) | median | min | max |\n| --- | --- | --- | --- |")
    for name, values in results.items():
        values = [v for v in values if v is not None]
        if values:
            print(f"| {name} | {statistics.median(values):.1f} | {min(values):.1f} | {max(values):.1f} |")
        else:
            print(f"| {name} | – | – | – |")
    print(f"\n| {BURST} Notify of one application, {BURST_SPACING * 1000:.0f} ms apart, expire_timeout {BURST_TIMEOUT} ms "
          f"(no compositor) | first Notify → no notification window on screen | windows mapped |\n| --- | --- | --- |")
    for name, how in [("xtoast", "joined into one toast"), ("dunst", "its default config: a popup each, in its one window")]:
        b = bursts[name]
        print(f"| {name} ({how}) | {bench.summary(b['calm'], ' s', 2)}{bench.ratio(b['calm'], bursts['xtoast']['calm']) if name != 'xtoast' else ''} | "
              f"{bench.summary(b['windows'], '', 0)} |")
    if len(flooded) == 5:
        answered, failed, took, peak, now = flooded
        print("\n| 2,000 Notify of 150 KB at once (xtoast's service) | answered | refused | all answered in | peak RSS | RSS after |")
        print("| --- | --- | --- | --- | --- | --- |")
        print(f"| xtoast | {answered} | {failed} | {took} s | {int(peak) / 1024:.1f} MB | {int(now) / 1024:.1f} MB |")


if __name__ == "__main__":
    main()
