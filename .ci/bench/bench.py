#!/usr/bin/env python3
"""xtoast's benchmark: side by side, in one run, alternating the tools (`make bench`).

Starts its own Xvfb (listening on TCP too, for the delayed link), once with picom and once
without a compositor, a session D-Bus with dunst for notify-send, builds the C floors and
watchers, measures, and prints markdown tables of median (min–max) figures over RUNS runs
(default 20), each tool's median also as a ratio to xtoast's. Progress goes to stderr, the
tables to stdout. Nothing here is a pass/fail test: the targets of issue 6 are shown as met or
missed.

Environment: RUNS (runs of everything, default 20), REFRESH (the screen's refresh rate in Hz,
default 60).
"""
import math, os, platform, queue, re, shutil, signal, socket, statistics, struct, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNS = int(os.environ.get("RUNS", "20"))
REFRESH = float(os.environ.get("REFRESH", "60"))
XTOAST = os.path.join(ROOT, ".build/release/xtoast")
WORK = tempfile.mkdtemp(prefix="xtoast-bench-")
TEXT = "Tagged"
WIDTH, HEIGHT = 1920, 1080

# The lifetime row: every tool shows TEXT for about 3 s. xtoast's is the default toast (hold
# "auto": 2 s for a short text, 0.2 s fade-in, 0.8 s fade-out).
LIFETIME = 3.0
# While holding, every tool is idle from here to there (seconds after exec; xtoast holds from
# 0.2 s, and without a compositor, where it does not fade, leaves at 2 s).
IDLE_FROM, IDLE_TO = 0.5, 1.5
# The fade of the frame pacing row (seconds), and the delayed link's round-trip time.
FADE_IN, FADE_OUT = 1.0, 1.0
RTT = 0.020
QUEUE = 100
# The drain row: DRAIN_SMALL and DRAIN_LARGE toasts of DRAIN_HOLD seconds each, started at once,
# DRAIN_RUNS times each per compositor; the time per toast should not grow with the queue.
DRAIN_SMALL, DRAIN_LARGE, DRAIN_HOLD, DRAIN_RUNS = 30, 300, 0.05, 3
# The notification centre's row (issue 29): `xtoast --center` over a store of CENTER_SMALL and of
# CENTER_LARGE kept notifications, of CENTER_APPS applications.
CENTER_SMALL, CENTER_LARGE, CENTER_APPS = 10, 10_000, 10

TOOLS = ["xtoast", "C Xlib floor", "C Cairo+Pango floor", "Swift Cairo+Pango floor", "osd_cat", "notify-send + dunst"]


def progress(text):
    print(f"bench: {text}", file=sys.stderr, flush=True)


def build():
    cairo = subprocess.run(["pkg-config", "--cflags", "--libs", "pangocairo", "cairo-xlib", "x11"],
                           capture_output=True, text=True, check=True).stdout.split()
    for name, libraries in [("firstpaint", ["-lX11", "-lXdamage"]),
                            ("calmwatch", ["-lX11"]),
                            ("fadeframes", ["-lX11", "-lXdamage", "-lXrandr"]),
                            ("queuewatch", ["-lX11", "-lXdamage", "-lXRes", "-lXtst"]),
                            ("cost", []),
                            ("floor-xlib", ["-lX11"]),
                            ("floor-cairo", cairo + ["-lm"])]:
        subprocess.run(["cc", "-O2", "-Wall", "-o", f"{WORK}/{name}", f"{HERE}/{name}.c"] + libraries, check=True)
    # The same floor in Swift, linked as the Makefile links xtoast (BENCH_SWIFT_LINK): what the
    # language and its runtime add to the C floor.
    headers = [word for flag in cairo if flag.startswith("-I") for word in ("-Xcc", flag)]
    modules = ["-I", f"{ROOT}/Sources/CX11", "-I", f"{ROOT}/Sources/CCairo"]
    link = os.environ.get("BENCH_SWIFT_LINK", "-static-stdlib").split()
    subprocess.run(["swiftc", "-O"] + modules + headers + link + ["-o", f"{WORK}/floor-swift", f"{HERE}/floor-swift.swift"]
                   + [flag for flag in cairo if flag.startswith("-l")] + ["-lm"], check=True)


class Server:
    """An Xvfb on a free display (TCP included) with a known background and a refresh rate,
    picom optional, and dunst on a session bus of its own."""

    def __init__(self, compositor):
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-noreset", "-ac", "-listen", "tcp", "-maxclients", "512",
                                      "-screen", "0", f"{WIDTH}x{HEIGHT}x24"], pass_fds=[write], stderr=subprocess.DEVNULL)
        os.close(write)
        text = b""
        while not text.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                raise SystemExit("bench: Xvfb did not start")
            text += chunk
        os.close(read)
        self.number = int(text.decode().strip())
        self.display = f":{self.number}"
        self.env = dict(os.environ, DISPLAY=self.display)
        for _ in range(50):
            if subprocess.run(["hsetroot", "-solid", "#3060a0"], env=self.env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        self.rate = self.set_refresh_rate(REFRESH)
        self.picom = subprocess.Popen(["picom", "--backend", "xrender"], env=self.env, stderr=subprocess.DEVNULL) if compositor else None
        bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                             capture_output=True, text=True, check=True).stdout.split()
        self.bus_address, self.bus_pid = bus[0], int(bus[1])
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        self.dunst = subprocess.Popen(["dunst"], env=self.env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        # A user at the keyboard: on a server nobody types on, toasts past `--idle`'s two minutes
        # would wait for one who never comes back. The screen saver's reset sets the idle time
        # back without moving the pointer.
        self.active = subprocess.Popen(["sh", "-c", "while sleep 20; do xset s reset || exit 0; done"], env=self.env,
                                       stderr=subprocess.DEVNULL)
        time.sleep(1)  # picom and dunst owning their names; setup only, nothing is measured here

    def set_refresh_rate(self, hz):
        """Xvfb's own mode has no timings (xrandr shows 0.00 Hz): give the screen a mode with the
        CEA-861 1080p blanking (2200 x 1125 in all) and a dot clock for `hz`, so that RandR
        reports a rate as it does for a monitor. Returns the rate RandR reports, None if none."""
        clock = 2200 * 1125 * hz / 1e6
        for command in [["xrandr", "--newmode", "bench", f"{clock:.4f}", "1920", "2008", "2052", "2200",
                         "1080", "1084", "1089", "1125", "+hsync", "+vsync"],
                        ["xrandr", "--addmode", "screen", "bench"], ["xrandr", "--output", "screen", "--mode", "bench"]]:
            if subprocess.run(command, env=self.env, capture_output=True).returncode != 0:
                return None
        m = re.search(r"bench\s+([0-9.]+)\*", subprocess.run(["xrandr"], env=self.env, capture_output=True, text=True).stdout)
        return float(m.group(1)) if m and float(m.group(1)) > 0 else None

    def close_notifications(self):
        subprocess.run(["dunstctl", "close-all"], env=self.env, capture_output=True)

    def stop(self):
        for p in [self.active, self.dunst, self.picom, self.xvfb]:
            if p:
                p.terminate()
                p.wait()
        os.kill(self.bus_pid, signal.SIGTERM)


class DelayLink:
    """A TCP proxy on loopback that delivers every chunk `delay` seconds after it arrived, in
    order, each way: a link with a round-trip time of 2 × delay and no bandwidth limit, the
    ssh -X case (this kernel has no netem). A thread per direction sleeps until each chunk is
    due, so chunks in flight overlap as they do on a real link."""

    def __init__(self, target_port, delay):
        self.target_port, self.delay = target_port, delay
        # A free X display number above the server's, for DISPLAY=127.0.0.1:N.
        for number in range(target_port - 6000 + 100, target_port - 6000 + 200):
            try:
                self.listener = socket.create_server(("127.0.0.1", 6000 + number))
                self.number = number
                break
            except OSError:
                continue
        else:
            raise SystemExit("bench: no free port for the delaying proxy")
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(("127.0.0.1", self.target_port))
            for s in (client, server):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            for source, sink in ((client, server), (server, client)):
                chunks = queue.Queue()
                threading.Thread(target=self.receive, args=(source, chunks), daemon=True).start()
                threading.Thread(target=self.deliver, args=(sink, chunks), daemon=True).start()

    def receive(self, source, chunks):
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            chunks.put((time.monotonic() + self.delay, data))
            if not data:
                return

    def deliver(self, sink, chunks):
        while True:
            due, data = chunks.get()
            time.sleep(max(0.0, due - time.monotonic()))
            try:
                if not data:
                    sink.shutdown(socket.SHUT_WR)
                    return
                sink.sendall(data)
            except OSError:
                return

    def round_trip(self, tries=10):
        """The link's real round-trip time in seconds (median): an X connection setup through
        it, which the server answers at once."""
        times = []
        for _ in range(tries):
            with socket.create_connection(("127.0.0.1", 6000 + self.number)) as s:
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sent = time.monotonic()
                s.sendall(struct.pack("<cxHHHHxx", b"l", 11, 0, 0, 0))  # little-endian, protocol 11.0, no auth
                s.recv(8)
                times.append(time.monotonic() - sent)
        return statistics.median(times)

    def close(self):
        self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()


# --- Measurements: each adds one run's figures to `results` ---------------------------------------

def text_file():
    """A file with TEXT for the standard input of every tool (osd_cat reads its text there)."""
    path = f"{WORK}/text"
    with open(path, "w") as f:
        f.write(TEXT + "\n")
    return open(path)


def first_paint_commands():
    return {
        "xtoast": [XTOAST, "--duration", "sticky", TEXT],
        "C Xlib floor": [f"{WORK}/floor-xlib"],
        "C Cairo+Pango floor": [f"{WORK}/floor-cairo"],
        "Swift Cairo+Pango floor": [f"{WORK}/floor-swift"],
        "osd_cat": ["osd_cat", "-d", "30", "-p", "bottom", "-A", "center"],
        "notify-send + dunst": ["notify-send", "-t", "30000", TEXT],
    }


def first_paint_once(command, env):
    """Exec to first painted pixels, in ms, from firstpaint (which kills the tool then)."""
    with text_file() as stdin:
        out = subprocess.run([f"{WORK}/firstpaint", "1"] + command, env=env, stdin=stdin, capture_output=True, text=True).stdout
    m = re.search(r"run 1: ([0-9.]+) ms", out)
    return float(m.group(1)) if m else None


def first_paint(server, results):
    for name, command in first_paint_commands().items():
        value = first_paint_once(command, server.env)
        if value is not None:
            results[name].append(value)
        server.close_notifications()


def center_store(count):
    """A session of its own holding `count` kept notifications, as the notification service
    writes them (KeptNotifications.encode), one file each, 30 s apart, the newest a minute old:
    the environment for `xtoast --center` (with an empty history, so that it lists those only)."""
    runtime = tempfile.mkdtemp(prefix=f"center-{count}-", dir=WORK)  # mode 0700, as XDG_RUNTIME_DIR must be
    kept = f"{runtime}/xtoast/kept"
    os.makedirs(kept, mode=0o700)
    newest = int(time.time()) - 60
    for n in range(1, count + 1):
        tag = f"fdn-{n}"
        fields = [f"id={n}", f"t={newest - (count - n) * 30}", "expired=kept", "acted=closed", f"tag={tag}",
                  f"app=App {n % CENTER_APPS}", f"summary=Message {n}",
                  f"body=The text of message {n}, long enough to take a second line in its row."]
        fields += [f"arg={a}" for a in ["--print-outcome", "--preset", "normal", "--tag", tag, "--markup", "--", f"Message {n}"]]
        with open(f"{kept}/{n}", "w") as f:
            f.write("\t".join(fields) + "\n")
    return {"XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": f"{runtime}/state"}


def center(server, stores, results):
    """Exec to the centre's first painted pixels (firstpaint: its one frame, drawn whole, after
    which it sets _XTOAST_SHOWN on its window), for each store; firstpaint then kills it, which
    closes it. The store's read marker goes first, so that every run opens it all unread."""
    for count, store in stores.items():
        try:
            os.unlink(f"{store['XDG_RUNTIME_DIR']}/xtoast/kept/read-up-to")
        except FileNotFoundError:
            pass
        value = first_paint_once([XTOAST, "--center"], dict(server.env, **store))
        if value is not None:
            results[count].append(value)


def wakeups(pid, seconds):
    """Wake-ups a second of process `pid` and its threads, new ones included, over `seconds`:
    the times its threads were switched out (each follows a wake-up), counted by perf. perf
    says "<not counted>" when the process never ran: 0."""
    out = subprocess.run(["perf", "stat", "-x,", "-e", "context-switches", "-p", str(pid), "--", "sleep", str(seconds)],
                         capture_output=True, text=True).stderr
    m = re.search(r"^([^,]*),[^,]*,context-switches", out, re.M)
    if not m or not (m.group(1).isdigit() or m.group(1) == "<not counted>"):
        return None
    return int(m.group(1)) / seconds if m.group(1).isdigit() else 0.0


def lifetime(server, results):
    """CPU (user+sys) and peak RSS of a whole toast of about 3 s, from wait4 in `cost`; and the
    wake-ups per second of whoever holds the toast (notify-send: dunst) while it is idle."""
    commands = {
        "xtoast": [XTOAST, TEXT],
        "C Xlib floor": [f"{WORK}/floor-xlib", f"{LIFETIME:.0f}"],
        "C Cairo+Pango floor": [f"{WORK}/floor-cairo", f"{LIFETIME:.0f}"],
        "Swift Cairo+Pango floor": [f"{WORK}/floor-swift", f"{LIFETIME:.0f}"],
        "osd_cat": ["osd_cat", "-d", f"{LIFETIME:.0f}", "-p", "bottom", "-A", "center"],
        "notify-send + dunst": ["notify-send", "-t", f"{LIFETIME * 1000:.0f}", TEXT],
    }
    for name, command in commands.items():
        with text_file() as stdin:
            started = time.monotonic()
            p = subprocess.Popen([f"{WORK}/cost"] + command, env=server.env, stdin=stdin, stdout=subprocess.PIPE, text=True)
            pid = int(p.stdout.readline().split()[1])
            holder = server.dunst.pid if name.startswith("notify-send") else pid
            time.sleep(max(0.0, started + IDLE_FROM - time.monotonic()))
            idle = wakeups(holder, IDLE_TO - IDLE_FROM)
            out = p.stdout.read()
            p.wait()
        m = re.search(r"cpu ([0-9.]+) rss (\d+)", out)
        if m:
            results["cpu"][name].append(float(m.group(1)))
            results["rss"][name].append(int(m.group(2)) / 1024)
        if idle is not None:
            results["idle"][name].append(idle)
        # notify-send returns at once; dunst shows the notification for the whole time.
        time.sleep(max(0.0, started + LIFETIME + 0.2 - time.monotonic()))
        server.close_notifications()


def fade_commands():
    fade = [XTOAST, "--fade-in", f"{FADE_IN:g}", "--duration", "0", "--fade-out", f"{FADE_OUT:g}", "--easing", "linear", TEXT]
    still = [XTOAST, "--fade-in", "0", "--duration", f"{FADE_IN + FADE_OUT:g}", "--fade-out", "0", TEXT]
    return fade, still


def frames_once(command, env):
    out = subprocess.run([f"{WORK}/fadeframes"] + command, env=env, capture_output=True, text=True).stdout
    rate = float(re.search(r"^rate ([0-9.]+)", out, re.M).group(1))
    frames = [float(x) for x in re.findall(r"^frame ([0-9.]+)", out, re.M)]
    cpu = float(re.search(r"^cpu ([0-9.]+)", out, re.M).group(1))
    return rate, frames, cpu


def percentile(values, p):
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def fade(server, results, composited):
    """Every frame of a linear 1 s + 1 s fade, from fadeframes' XDamage watch; the CPU per frame
    is the CPU above that of the same toast, as long, without fades, over the frames above its."""
    fade_command, still_command = fade_commands()
    rate, frames, cpu = frames_once(fade_command, server.env)
    rate = rate or 60.0  # what xtoast paces to when RandR knows no rate
    interval = 1000 / rate
    gaps = [b - a for a, b in zip(frames, frames[1:])]
    results["rate"].append(rate)
    results["frames"].append(len(frames))
    results["gaps"].extend(gaps)
    if gaps:
        results["p50"].append(statistics.median(gaps))
        results["p99"].append(percentile(gaps, 99))
        results["on time"].append(100 * sum(g <= 1.5 * interval for g in gaps) / len(gaps))
    if composited:
        _, still_frames, still_cpu = frames_once(still_command, server.env)
        if len(frames) > len(still_frames):
            results["cpu per frame"].append((cpu - still_cpu) / (len(frames) - len(still_frames)))


def over_link(server, results, link):
    """First paint with the tool's X connection through the delaying proxy, and locally; the
    watcher itself always watches locally. `env` runs both ways, so its exec cancels out. The
    difference is counted in the link's measured round trips."""
    # The bare Xlib floor shows what Xlib alone costs: XOpenDisplay's four round trips, then a
    # map and an Expose before it draws.
    for name in ("xtoast", "C Xlib floor", "C Cairo+Pango floor"):
        command = first_paint_commands()[name]
        local = first_paint_once(["env", f"DISPLAY={server.display}"] + command, server.env)
        remote = first_paint_once(["env", f"DISPLAY=127.0.0.1:{link.number}"] + command, server.env)
        if local is not None and remote is not None:
            results["remote"][name].append(remote)
            results["extra"][name].append((remote - local) / (results["rtt"] * 1000))


def queue_run(server, results):
    """QUEUE xtoast processes forked at once by queuewatch: when all have joined the queue (RECORD
    sees their appends), and whether their toasts, each clicked away once seen, show in that order."""
    out = subprocess.run([f"{WORK}/queuewatch", str(QUEUE), XTOAST, "--duration", "sticky", "--fade-in", "0",
                          "--fade-out", "0", "Queued"], env=server.env, capture_output=True, text=True).stdout
    joined = re.search(r"^joined (\d+) ([0-9.]+)", out, re.M)
    shown = re.search(r"^shown (\d+) ([0-9.]+)", out, re.M)
    order = re.search(r"^order (\d+)", out, re.M)
    if joined and int(joined.group(1)) == QUEUE:
        results["joined"].append(float(joined.group(2)))
    if shown and int(shown.group(1)) == QUEUE:
        results["shown"].append(float(shown.group(2)))
    results["all shown"].append(bool(shown) and int(shown.group(1)) == QUEUE)
    results["order"].append(int(order.group(1)) if order else QUEUE)


def drain_run(server, count, results):
    """COUNT toasts of DRAIN_HOLD s started at once: the time from the first start to the last exit,
    per toast, if all ended normally."""
    began = time.monotonic()
    children = [subprocess.Popen([XTOAST, "--fade-in", "0", "--fade-out", "0", "--duration", str(DRAIN_HOLD), f"Drain {i}"],
                                 env=server.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(count)]
    statuses = [child.wait() for child in children]
    if all(status == 0 for status in statuses):
        results.append(1000 * (time.monotonic() - began) / count)


def measure(compositor, stores):
    server = Server(compositor)
    link = DelayLink(6000 + server.number, RTT / 2)
    title = "picom" if compositor else "no compositor"
    per_tool = lambda: {name: [] for name in TOOLS}
    r = {"rate": server.rate, "rtt": link.round_trip(), "paint": per_tool(), "cpu": per_tool(), "rss": per_tool(), "idle": per_tool(),
         "remote": per_tool(), "extra": per_tool(),
         "fade": {"rate": [], "frames": [], "gaps": [], "p50": [], "p99": [], "on time": [], "cpu per frame": []},
         "queue": {"joined": [], "shown": [], "all shown": [], "order": []}, "drain": {DRAIN_SMALL: [], DRAIN_LARGE: []},
         "center": {count: [] for count in stores}}
    try:
        # Each run measures every row once, every tool in turn.
        for run in range(RUNS):
            began = time.monotonic()
            first_paint(server, r["paint"])
            center(server, stores, r["center"])
            lifetime(server, r)
            fade(server, r["fade"], compositor)
            over_link(server, r, link)
            queue_run(server, r["queue"])
            if run < DRAIN_RUNS:
                for count in (DRAIN_SMALL, DRAIN_LARGE):
                    drain_run(server, count, r["drain"][count])
            progress(f"{title}: run {run + 1} of {RUNS} ({time.monotonic() - began:.0f} s)")
    finally:
        link.close()
        server.stop()
    return r


# --- The report ---------------------------------------------------------------------------------

def summary(values, unit="", digits=1):
    if not values:
        return "n/a"
    f = f"{{:.{digits}f}}"
    med = f.format(statistics.median(values))
    return f"{med}{unit} ({f.format(min(values))}–{f.format(max(values))})"


def ratio(values, reference):
    if not values or not reference or statistics.median(reference) == 0:
        return ""
    return f", {statistics.median(values) / statistics.median(reference):.2f}×"


def tool_row(label, data, unit, digits=1):
    cells = [summary(data["xtoast"], unit, digits)]
    cells += [summary(data[name], unit, digits) + ratio(data[name], data["xtoast"]) if data[name] else "n/a" for name in TOOLS[1:]]
    return f"| {label} | " + " | ".join(cells) + " |"


def xtoast_row(label, cell):
    return f"| {label} | {cell} | " + " | ".join("n/a" for _ in TOOLS[1:]) + " |"


def table(r, compositor):
    lines = []
    rate = statistics.median(r["fade"]["rate"]) if r["fade"]["rate"] else 60.0
    slots = round((FADE_IN + FADE_OUT) * rate)
    lines.append("| " + " | ".join(["measure"] + TOOLS) + " |")
    lines.append("| " + " | ".join(["---"] * (len(TOOLS) + 1)) + " |")
    lines.append(tool_row("first paint (exec → first painted pixels)", r["paint"], " ms"))
    c = r["center"]
    toast_ratio = ratio(c[CENTER_SMALL], r["paint"]["xtoast"])
    lines.append(xtoast_row(f"… the notification centre instead (`--center`), {CENTER_SMALL} kept notifications",
                            summary(c[CENTER_SMALL], " ms") + (f"{toast_ratio} the toast's" if toast_ratio else "")))
    large_ratio = ratio(c[CENTER_LARGE], c[CENTER_SMALL])
    lines.append(xtoast_row(f"… {CENTER_LARGE:,} kept notifications",
                            summary(c[CENTER_LARGE], " ms") + (f"{large_ratio} {CENTER_SMALL}'s" if large_ratio else "")))
    lines.append(tool_row("CPU (user+sys), a whole toast: xtoast's default, the others 3 s", r["cpu"], " ms"))
    lines.append(tool_row("peak RSS", r["rss"], " MB"))
    lines.append(tool_row("wake-ups a second while holding", r["idle"], "", 1))
    lines.append(tool_row(f"first paint over a link with {RTT * 1000:.0f} ms round trips (measured: {r['rtt'] * 1000:.1f} ms)", r["remote"], " ms"))
    lines.append(tool_row("… more than locally, in round trips", r["extra"], "", 1))
    q = r["queue"]
    lines.append(xtoast_row(f"{QUEUE} processes started at once: all joined the queue after", summary(q["joined"], " ms", 0)))
    lines.append(xtoast_row(f"… all {QUEUE} toasts shown after (each clicked away once seen)", summary(q["shown"], " ms", 0)))
    in_order = sum(1 for a, o in zip(q["all shown"], q["order"]) if a and o == 0)
    lines.append(xtoast_row("… runs with every toast shown, in queue order", f"{in_order} of {len(q['order'])}"))
    d = r["drain"]
    lines.append(xtoast_row(f"{DRAIN_SMALL} toasts of {DRAIN_HOLD:g} s started at once: time per toast to drain",
                            summary(d[DRAIN_SMALL], " ms", 1)))
    lines.append(xtoast_row(f"… {DRAIN_LARGE} toasts", summary(d[DRAIN_LARGE], " ms", 1) + ratio(d[DRAIN_LARGE], d[DRAIN_SMALL])))
    f = r["fade"]
    label = f"fade {FADE_IN:g} s in + {FADE_OUT:g} s out: frames delivered"
    if compositor:
        lines.append(xtoast_row(f"{label} (of {slots} slots at {rate:.0f} Hz)", summary(f["frames"], "", 0)))
        lines.append(xtoast_row("… interval between frames, p50", summary(f["p50"], " ms", 2)))
        lines.append(xtoast_row("… interval between frames, p99", summary(f["p99"], " ms", 2)))
        lines.append(xtoast_row(f"… frames within 1.5× the frame interval ({1.5 * 1000 / rate:.1f} ms)", summary(f["on time"], " %", 1)))
        lines.append(xtoast_row("… CPU per frame (above the same toast without fades)", summary(f["cpu per frame"], " ms", 3)))
    else:
        lines.append(xtoast_row(f"{label} (none: nothing to blend without a compositor)", summary(f["frames"], "", 0)))
    return "\n".join(lines)


def median(values):
    return statistics.median(values) if values else float("nan")


def targets(results):
    """The goals of issue 6, each as measured with picom and without a compositor."""
    def met(flags):
        return "yes" if all(flags) else "**no**"

    rows = []

    def add(goal, measured, ok):
        cells = [measured(results[c]) for c in (True, False)]
        rows.append(f"| {goal} | {cells[0]} | {cells[1]} | {met(ok(results[c]) for c in (True, False))} |")

    def paint_ratio(r, name):
        return median(r["paint"]["xtoast"]) / median(r["paint"][name])

    add("first paint ≤ 1.2× the C Cairo+Pango floor", lambda r: f"{paint_ratio(r, 'C Cairo+Pango floor'):.2f}×",
        lambda r: paint_ratio(r, "C Cairo+Pango floor") <= 1.2)
    add("first paint below osd_cat and notify-send + dunst",
        lambda r: f"{median(r['paint']['xtoast']):.1f} ms vs {median(r['paint']['osd_cat']):.1f} and {median(r['paint']['notify-send + dunst']):.1f}",
        lambda r: paint_ratio(r, "osd_cat") < 1 and paint_ratio(r, "notify-send + dunst") < 1)
    def rss_ratio(r, name, of="xtoast"):
        return median(r["rss"][of]) / median(r["rss"][name])

    add("peak RSS ≤ 1.2× the C Cairo+Pango floor (issue 31)",
        lambda r: f"{rss_ratio(r, 'C Cairo+Pango floor'):.2f}× (the Swift floor's "
                  f"{rss_ratio(r, 'C Cairo+Pango floor', of='Swift Cairo+Pango floor'):.2f}×; "
                  f"xtoast {rss_ratio(r, 'Swift Cairo+Pango floor'):.2f}× the Swift floor)",
        lambda r: rss_ratio(r, "C Cairo+Pango floor") <= 1.2)
    add("0 wake-ups a second while holding", lambda r: f"{max(r['idle']['xtoast'], default=float('nan')):.1f} (most in any run)",
        lambda r: bool(r["idle"]["xtoast"]) and max(r["idle"]["xtoast"]) == 0)
    add("CPU for a whole default toast ≤ 30 ms", lambda r: f"{median(r['cpu']['xtoast']):.1f} ms",
        lambda r: median(r["cpu"]["xtoast"]) <= 30)

    def on_time(r):
        f = r["fade"]
        interval = 1000 / (median(f["rate"]) if f["rate"] else 60.0)
        return 100 * sum(g <= 1.5 * interval for g in f["gaps"]) / len(f["gaps"]) if f["gaps"] else float("nan")

    rows.append(f"| ≥ 99 % of fade frames within 1.5× the frame interval | {on_time(results[True]):.2f} % "
                f"(all runs' {len(results[True]['fade']['gaps'])} intervals) | n/a (no fade) | "
                f"{met([on_time(results[True]) >= 99])} |")
    add(f"over a {RTT * 1000:.0f} ms link, first paint ≤ 4 round trips more than locally",
        lambda r: f"{median(r['extra']['xtoast']):.1f} round trips (C Xlib floor {median(r['extra']['C Xlib floor']):.1f}, "
                  f"Cairo+Pango floor {median(r['extra']['C Cairo+Pango floor']):.1f})",
        lambda r: median(r["extra"]["xtoast"]) <= 4)
    add(f"{QUEUE} concurrent processes registered in ≤ 1 s, all shown in order",
        lambda r: f"{median(r['queue']['joined']):.0f} ms, in order in {sum(1 for a, o in zip(r['queue']['all shown'], r['queue']['order']) if a and o == 0)} of {len(r['queue']['order'])} runs",
        lambda r: median(r["queue"]["joined"]) <= 1000 and all(r["queue"]["all shown"]) and not any(r["queue"]["order"]))
    add(f"drain of {DRAIN_LARGE} waiting toasts ≤ 1.5× the time per toast of {DRAIN_SMALL}",
        lambda r: f"{median(r['drain'][DRAIN_LARGE]) / median(r['drain'][DRAIN_SMALL]):.2f}×",
        lambda r: median(r["drain"][DRAIN_LARGE]) <= 1.5 * median(r["drain"][DRAIN_SMALL]))
    return "| target (issues 6, 12, 31) | with picom | without a compositor | met |\n| --- | --- | --- | --- |\n" + "\n".join(rows)


def machine():
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
    memory = next((int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal")), 0) / 1024 / 1024
    system = next((line.split("=", 1)[1].strip().strip('"') for line in open("/etc/os-release") if line.startswith("PRETTY_NAME")), "")
    u = os.uname()
    version = subprocess.run([XTOAST, "--version"], capture_output=True, text=True).stdout.strip()
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(XTOAST)))
    xvfb = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "xvfb"], capture_output=True, text=True).stdout.strip()
    picom = subprocess.run(["picom", "--version"], capture_output=True, text=True).stdout.strip()
    return (f"{u.sysname} {u.release} {u.machine}, {model}, {os.cpu_count()} cores, {memory:.0f} GB; {system}; "
            f"Xvfb {xvfb} at {WIDTH}x{HEIGHT}; picom {picom} (xrender); {version} (release build of {built})")


def main():
    global XTOAST
    started = time.monotonic()
    results = {}
    try:
        if not os.access(XTOAST, os.X_OK):
            raise SystemExit(f"bench: no {XTOAST}; build it first (make release)")
        about = machine()
        # The build measured is the one there now, even if it is rebuilt while the bench runs.
        XTOAST = shutil.copy2(XTOAST, f"{WORK}/xtoast")
        build()
        stores = {count: center_store(count) for count in (CENTER_SMALL, CENTER_LARGE)}
        for compositor in (True, False):
            results[compositor] = measure(compositor, stores)
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    minutes = (time.monotonic() - started) / 60
    rate = results[True]["rate"]

    print(f"### Benchmark, {time.strftime('%Y-%m-%d')}\n")
    print(f"Machine: {about}.\n")
    print(f"{RUNS} runs (`RUNS={RUNS} make bench`, {minutes:.0f} min); in every run each row is measured once for "
          f"every tool in turn. Each cell: median (min–max) over the runs, then the median as a ratio to xtoast's. "
          f"The screen refreshes at {f'{rate:.2f} Hz (RandR)' if rate else '? Hz (RandR reports none: xtoast paces to 60 Hz)'}. "
          f"notify-send's CPU and memory are the client's; its wake-ups are dunst's.\n")
    for compositor in (True, False):
        print(f"#### {'With picom (xrender backend)' if compositor else 'Without a compositor'}\n")
        print(table(results[compositor], compositor) + "\n")
    print("#### Targets\n")
    print(targets(results))


if __name__ == "__main__":
    main()
