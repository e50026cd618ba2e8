import XToastCore
import XToastSystem

/// What the centre reads besides the kept notifications: the history's toasts dismissed from it
/// (`CenterDismissals`), a file beside the store's read marker.
extension KeptStore {
    /// The file's name in the store's folder (not a number: the store never takes it for a
    /// notification).
    static let dismissedToastsName = "toasts-dismissed"

    /// The keys of the history's toasts dismissed from the centre.
    public func dismissedToasts() -> Set<String> {
        guard let (bytes, _) = try? RegularFile.read("\(folder)/\(Self.dismissedToastsName)", limit: CenterDismissals.byteLimit) else {
            return []
        }
        return CenterDismissals.read(bytes)
    }

    /// Adds `keys` to the dismissed toasts, keeping only those the history still has (`current`).
    public func dismissToasts(_ keys: [String], current: Set<String>) throws(SystemFailure) {
        try replace(Self.dismissedToastsName, with: CenterDismissals.write(dismissedToasts(), adding: keys, current: current))
    }
}
