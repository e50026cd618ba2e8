/// Declines the MIT-SHM extension to cairo-xlib, which asks through this Xlib function the first
/// time it draws into a window and then tests a shared segment with `XSync`s: four round trips
/// before the first frame (measured over a delayed link), wasted over `ssh -X`, where shared
/// memory cannot work anyway. xtoast uploads nothing large: the content is drawn on the server once
/// (RENDER) and every frame only composites it, so shared memory would gain nothing.
///
/// The executable's definition comes before libXext's for every library that looks the name
/// up, and the linker exports it because libcairo refers to it (Firefox declines MIT-SHM to
/// cairo the same way). The install test checks that the release binary exports it.
@_cdecl("XShmQueryExtension")
public func declineSharedMemory(_ display: OpaquePointer?) -> Int32 { 0 }
