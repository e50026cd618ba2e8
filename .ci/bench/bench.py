#!/usr/bin/env python3
"""xtoast's benchmark: side by side, in one run, alternating the tools (`make bench`).

Starts its own Xvfb (listening on TCP for the delayed-link row) with and without picom, a
session D-Bus with dunst for notify-send, builds the C floors, and prints a table of
median/min/max figures with each tool's ratio to xtoast. Nothing here is a pass/fail test.
"""
import asyncio, os, re, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNS = int(os.environ.get("RUNS", "20"))
XTOAST = os.path.join(ROOT, ".build/release/xtoast")
WORK = tempfile.mkdtemp(prefix="xtoast-bench-")


def build():
    cflags = subprocess.run(["pkg-config", "--cflags", "--libs", "pangocairo", "cairo-xlib", "x11"],
                            capture_output=True, text=True, check=True).stdout.split()
    for name, extra in [("firstpaint", ["-lX11", "-lXdamage"]), ("floor-xlib", ["-lX11"]), ("floor-cairo", cflags + ["-lm"])]:
        subprocess.run(["cc", "-O2", "-o", f"{WORK}/{name}", f"{HERE}/{name}.c"] + extra, check=True)


class Server:
    """An Xvfb on a free display, TCP included, with a known background; picom optional."""

    def __init__(self, compositor):
        read, write = os.pipe()
        # TCP only where the delayed-link row needs it (a port just closed may still be taken).
        listen = ["-listen", "tcp"] if compositor else ["-nolisten", "tcp"]
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-noreset", "-ac"] + listen +
                                     ["-screen", "0", "1920x1080x24"], pass_fds=[write], stderr=subprocess.DEVNULL)
        os.close(write)
        text = b""
        while not text.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                raise SystemExit("bench: Xvfb did not start")
            text += chunk
        self.number = int(text.decode().strip())
        os.close(read)
        self.display = f":{self.number}"
        self.env = dict(os.environ, DISPLAY=self.display)
        for _ in range(50):
            if subprocess.run(["hsetroot", "-solid", "#3060a0"], env=self.env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        self.picom = subprocess.Popen(["picom", "--backend", "xrender"], env=self.env, stderr=subprocess.DEVNULL) if compositor else None
        bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                             capture_output=True, text=True, check=True).stdout.split()
        self.bus_address, self.bus_pid = bus[0], int(bus[1])
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        self.dunst = subprocess.Popen(["dunst"], env=self.env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        time.sleep(1)  # picom and dunst owning their names; setup only, nothing is measured here

    def stop(self):
        for p in [self.dunst, self.picom, self.xvfb]:
            if p:
                p.terminate()
                p.wait()
        os.kill(self.bus_pid, signal.SIGTERM)


def tools():
    return {
        "xtoast": [XTOAST, "--duration", "sticky", "Tagged"],
        "C Xlib floor": [f"{WORK}/floor-xlib"],
        "C Cairo+Pango floor": [f"{WORK}/floor-cairo"],
        "osd_cat": ["osd_cat", "-d", "30", "-p", "bottom", "-A", "center"],
        "notify-send + dunst": ["notify-send", "-t", "30000", "Tagged"],
    }


def measure_first_paint(command, env):
    """One run of firstpaint; osd_cat reads its text from the standard input it inherits."""
    with open(f"{WORK}/text", "w") as text:
        text.write("Tagged\n")
    with open(f"{WORK}/text") as text:
        out = subprocess.run([f"{WORK}/firstpaint", "1"] + command, env=env, stdin=text, capture_output=True, text=True).stdout
    m = re.search(r"run 1: ([0-9.]+) ms", out)
    return float(m.group(1)) if m else None


def first_paint(server, runs):
    results = {name: [] for name in tools()}
    for _ in range(runs):
        for name, command in tools().items():
            value = measure_first_paint(command, server.env)
            if value is not None:
                results[name].append(value)
            subprocess.run(["dunstctl", "close-all"], env=server.env, capture_output=True)
    return results


def lifetime_cost(server, runs):
    """CPU (user+sys) and peak RSS of a whole 3 s toast, from wait4."""
    commands = {
        "xtoast": [XTOAST, "--duration", "3", "Tagged"],
        "C Xlib floor": [f"{WORK}/floor-xlib", "3"],
        "C Cairo+Pango floor": [f"{WORK}/floor-cairo", "3"],
        "osd_cat": ["osd_cat", "-d", "3", "-p", "bottom", "-A", "center"],
        "notify-send + dunst": ["notify-send", "-t", "3000", "Tagged"],
    }
    cpu = {n: [] for n in commands}
    rss = {n: [] for n in commands}
    for _ in range(runs):
        for name, command in commands.items():
            # CPU from wait4 (microseconds); peak RSS from GNU time, whose child is forked from a
            # small C program: a child of this Python would count the interpreter's pages.
            p = subprocess.Popen(command, env=server.env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            p.stdin.write(b"Tagged\n")
            p.stdin.close()
            _, _, usage = os.wait4(p.pid, 0)
            cpu[name].append((usage.ru_utime + usage.ru_stime) * 1000)
            t = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, env=server.env, input=b"Tagged\n",
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            rss[name].append(int(t.stderr.decode().strip().splitlines()[-1]) / 1024)
        subprocess.run(["dunstctl", "close-all"], env=server.env, capture_output=True)
    return cpu, rss


def idle_wakeups(server):
    """System calls per second while a toast just holds (they are wake-ups): strace, all threads."""
    trace = f"{WORK}/idle.trace"
    start = time.time()
    subprocess.run(["strace", "-f", "-ttt", "-o", trace, XTOAST, "--duration", "4", "Holding"], env=server.env)
    calls = [float(m.group(1)) for line in open(trace) if (m := re.match(r"\d+\s+(\d+\.\d+)\s", line))]
    if not calls:
        return float("nan")
    first = min(calls)
    # The hold runs from ~0.25 s to ~4.2 s after start; look at the middle two seconds.
    window = [t for t in calls if first + 1.2 <= t <= first + 3.2]
    return len(window) / 2.0


def queue_throughput(server, count=100):
    """Start `count` xtoast processes at once; time until all are registered in the queue."""
    start = time.time()
    procs = [subprocess.Popen([XTOAST, "--duration", "sticky", f"Toast {i}"], env=server.env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(count)]
    registered = None
    while time.time() - start < 30:
        out = subprocess.run(["xprop", "-root", "_XTOAST_QUEUE"], env=server.env, capture_output=True, text=True).stdout
        if len(re.findall(r"0x[0-9a-f]+", out)) >= count:
            registered = time.time() - start
            break
        time.sleep(0.01)
    subprocess.run([XTOAST, "--dismiss-all"], env=server.env)
    for p in procs:
        p.wait()
    return registered


class DelayProxy(threading.Thread):
    """A TCP proxy on loopback that holds every chunk `delay` seconds each way: the ssh -X case."""

    def __init__(self, target_port, listen_port, delay):
        super().__init__(daemon=True)
        self.target_port, self.listen_port, self.delay = target_port, listen_port, delay

    def run(self):
        asyncio.run(self.serve())

    async def serve(self):
        async def pipe(reader, writer):
            try:
                while data := await reader.read(65536):
                    await asyncio.sleep(self.delay)
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                writer.close()

        async def handle(client_reader, client_writer):
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

        server = await asyncio.start_server(handle, "127.0.0.1", self.listen_port)
        async with server:
            await server.serve_forever()


def over_delayed_link(server, runs, rtt=0.020):
    proxy_display = server.number + 100
    DelayProxy(6000 + server.number, 6000 + proxy_display, rtt / 2).start()
    time.sleep(0.3)
    env_remote = dict(server.env, DISPLAY=f"127.0.0.1:{proxy_display}")
    local = {"xtoast": [], "C Cairo+Pango floor": []}
    remote = {"xtoast": [], "C Cairo+Pango floor": []}
    for _ in range(runs):
        for name in local:
            command = tools()[name]
            for env, bucket in [(server.env, local), (env_remote, remote)]:
                out = subprocess.run([f"{WORK}/firstpaint", "1"] + command, env=env, capture_output=True, text=True).stdout
                m = re.search(r"run 1: ([0-9.]+) ms", out)
                if m:
                    bucket[name].append(float(m.group(1)))
    return {name: (statistics.median(remote[name]) - statistics.median(local[name])) / (rtt * 1000) for name in local}


def row(label, values, reference, unit):
    if not values:
        return f"| {label} | n/a | | | |"
    med = statistics.median(values)
    ratio = f"{med / reference:.2f}" if reference else ""
    return f"| {label} | {med:.1f} {unit} | {min(values):.1f} | {max(values):.1f} | {ratio} |"


def main():
    build()
    print(f"xtoast benchmark, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {RUNS} runs each, alternating tools\n")
    for compositor in (True, False):
        server = Server(compositor)
        try:
            title = "with picom (xrender)" if compositor else "without a compositor"
            paint = first_paint(server, RUNS)
            reference = statistics.median(paint["xtoast"]) if paint["xtoast"] else None
            print(f"### Time from exec to first painted frame, {title}\n")
            print("| tool | median | min | max | ratio to xtoast |\n| --- | --- | --- | --- | --- |")
            for name, values in paint.items():
                print(row(name, values, reference, "ms"))
            print()
            if compositor:
                cpu, rss = lifetime_cost(server, max(RUNS // 4, 5))
                print("### A whole 3 s toast: CPU (user+sys) and peak RSS (notify-send: the client only)\n")
                print("| tool | CPU median | min | max | ratio | peak RSS median (MB) | ratio |\n| --- | --- | --- | --- | --- | --- | --- |")
                for name in cpu:
                    c = statistics.median(cpu[name])
                    r = statistics.median(rss[name])
                    print(f"| {name} | {c:.1f} ms | {min(cpu[name]):.1f} | {max(cpu[name]):.1f} | "
                          f"{c / statistics.median(cpu['xtoast']):.2f} | {r:.1f} | {r / statistics.median(rss['xtoast']):.2f} |")
                print()
                print(f"Idle cost while a toast holds: {idle_wakeups(server):.1f} wake-ups per second\n")
                registered = queue_throughput(server)
                print(f"Queue: 100 processes started at once, all registered after "
                      f"{registered * 1000:.0f} ms\n" if registered else "Queue: not all 100 registered within 30 s\n")
                link = over_delayed_link(server, max(RUNS // 2, 5))
                print("Over a link with 20 ms round trips (a delaying TCP proxy on loopback): first paint minus "
                      "local first paint, in round trips: " + ", ".join(f"{n} {v:.1f}" for n, v in link.items()) + "\n")
        finally:
            server.stop()
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
