package io.tickwork.server.client.idle;

import io.tickwork.server.client.common.Args;
import io.tickwork.server.client.common.Fmt;
import io.tickwork.server.client.common.Targets;
import io.tickwork.server.client.common.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The {@code idle} subcommand: command line to {@link IdleConfig}, run, report. */
public final class IdleCommand {
    private IdleCommand() {}

    static final List<Args.Opt> OPTS = List.of(
            Args.Opt.value(
                    "target",
                    "HOST:PORT[,..]",
                    "server(s) to connect to, round robin " + "(default 127.0.0.1:9090, the dictionary server's)"),
            Args.Opt.value("connections", "N", "connections to open and hold (default 10000)")
                    .alias('c'),
            Args.Opt.value("step", "N", "ramp: new connections per second (default 5000)"),
            Args.Opt.value("max-pending", "N", "connects in flight at once (default 1000)"),
            Args.Opt.value(
                    "sources",
                    "K",
                    "source addresses to bind before connect, from "
                            + "--first-source\n(default: enough for N at ~28k ports each; 0 = let the kernel "
                            + "choose)"),
            Args.Opt.value("first-source", "IP", "first source address (default 127.0.0.2)"),
            Args.Opt.value("duration", "TIME", "hard bound on the whole run (default 60s)")
                    .alias('D'),
            Args.Opt.value("hold", "TIME", "how long to hold after the ramp ends (default: until " + "--duration)"),
            Args.Opt.value("connect-timeout", "TIME", "a connect unfinished this long fails (default " + "10s)"),
            Args.Opt.flag(
                    "workload",
                    "http-kit workload: idle a random time, GET PATH?len=L (L "
                            + "random\nin 1..--max-length), read the response, repeat"),
            Args.Opt.value("idle-min", "TIME", "workload: shortest idle time (default 5s)"),
            Args.Opt.value("idle-max", "TIME", "workload: longest idle time (default 45s)"),
            Args.Opt.value("max-length", "L", "workload: largest len parameter (default 4096)"),
            Args.Opt.value("path", "PATH", "workload: request path (default /)"),
            Args.Opt.value("timeout", "TIME", "workload: response timeout (default 10s)"),
            Args.Opt.value(
                    "stats-url",
                    "URL",
                    "the server's stats document (e.g. "
                            + "http://127.0.0.1:8080/stats),\nprinted before and at the end of the ramp"),
            Args.Opt.value(
                    "server-pid", "PID", "the server's pid: its RSS before and after the ramp," + "\nper connection"),
            Args.Opt.value("seed", "N", "random seed for the workload (default 1)"),
            Args.Opt.flag("json", "print the final report as one JSON object on stdout (progress to " + "stderr)"),
            Args.Opt.flag("quiet", "no per-second progress lines"));

    static final String USAGE = "LoadTool idle [options] [HOST:PORT]";
    static final String WHAT = """
      Opens N connections and holds them idle, ramping at --step per second, each bound to the
      next of K loopback source addresses (127.0.0.2, 127.0.0.3, ...) so the ephemeral port
      range is per source address. A line per second. When the OS refuses (EMFILE, ENFILE,
      EADDRNOTAVAIL, ECONNREFUSED) it says which limit and how to raise it, then holds what it
      has until the end. Reports client (and, with --server-pid/--stats-url, server) memory
      per connection. Loopback targets only.""";

    public static int run(String[] argv, PrintStream out, PrintStream err) throws InterruptedException, IOException {
        Args a = Args.parse("idle", OPTS, argv);
        if (a.help()) {
            out.print(Args.help(USAGE, WHAT, OPTS));
            return 0;
        }
        IdleConfig cfg = config(a);
        boolean json = a.flag("json");
        PrintStream progress = a.flag("quiet") ? null : json ? err : out;
        (json ? err : out)
                .printf(
                        "idle: %d connections to %s from %s, %d/s%n",
                        cfg.connections(),
                        cfg.targets(),
                        cfg.sources().isEmpty()
                                ? "the kernel's choice of source"
                                : cfg.sources().size() == 1
                                        ? "source address "
                                                + cfg.sources().get(0).getHostAddress()
                                        : cfg.sources().size()
                                                + " source addresses "
                                                + cfg.sources().get(0).getHostAddress() + ".."
                                                + cfg.sources()
                                                        .get(cfg.sources().size() - 1)
                                                        .getHostAddress(),
                        cfg.step());
        IdleHolder h = new IdleHolder(cfg, progress);
        IdleResult r = h.run();
        out.print(json ? r.toJson(cfg) + "\n" : r.toText());
        return 0;
    }

    static IdleConfig config(Args a) {
        if (a.positional().size() > 1) {
            throw new UsageException("idle takes one HOST:PORT, got: " + a.positional());
        }
        String t = a.positional().isEmpty()
                ? a.string("target", "127.0.0.1:9090")
                : a.positional().get(0);
        List<InetSocketAddress> targets = Targets.hostPorts("--target", t);
        int n = a.intValue("connections", 10_000, 1, 10_000_000);
        int perSource = Math.max(1, (int) (portRange() * 0.9));
        int k = a.intValue("sources", Math.max(1, (n + perSource - 1) / perSource), 0, 65_536);
        InetAddress first = Targets.loopback("--first-source", a.string("first-source", "127.0.0.2"));
        List<InetAddress> sources = new ArrayList<>();
        byte[] b = first.getAddress();
        if (k > 0 && b.length != 4) {
            throw new UsageException("--first-source must be an IPv4 loopback address: " + first.getHostAddress());
        }
        long base = ((b[0] & 0xffL) << 24) | ((b[1] & 0xffL) << 16) | ((b[2] & 0xffL) << 8) | (b[3] & 0xffL);
        for (int i = 0; i < k; i++) {
            long x = base + i;
            if ((x >>> 24) != 127 || (x & 0xff) == 255) {
                if ((x >>> 24) != 127) {
                    throw new UsageException(
                            "--sources " + k + " from " + first.getHostAddress() + " runs past 127.255.255.255");
                }
                continue; // skip broadcast-looking .255 addresses; loopback takes them, but be tidy
            }
            try {
                sources.add(InetAddress.getByAddress(
                        new byte[] {(byte) (x >>> 24), (byte) (x >>> 16), (byte) (x >>> 8), (byte) x}));
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        Duration duration = a.duration("duration", Duration.ofSeconds(60), Duration.ofMillis(100), Duration.ofDays(1));
        Duration hold = a.duration("hold", duration, Duration.ZERO, Duration.ofDays(1));
        Duration idleMin = a.duration("idle-min", Duration.ofSeconds(5), Duration.ZERO, Duration.ofHours(1));
        Duration idleMax = a.duration("idle-max", Duration.ofSeconds(45), Duration.ZERO, Duration.ofHours(1));
        if (idleMax.compareTo(idleMin) < 0) {
            throw new UsageException("--idle-max must be >= --idle-min: " + Fmt.duration(idleMax));
        }
        String path = a.string("path", "/");
        if (!path.startsWith("/") || path.chars().anyMatch(c -> c <= ' ' || c >= 0x7f)) {
            throw new UsageException("--path must start with / and be encoded: " + path);
        }
        String stats = a.string("stats-url", null);
        String pid = a.string("server-pid", null);
        if (pid != null && !pid.matches("[0-9]+")) {
            throw new UsageException("--server-pid must be a number: " + pid);
        }
        return new IdleConfig(
                targets,
                sources,
                n,
                a.intValue("step", 5_000, 1, 10_000_000),
                a.intValue("max-pending", 1_000, 1, 1_000_000),
                duration,
                hold,
                a.duration("connect-timeout", Duration.ofSeconds(10), Duration.ofMillis(1), Duration.ofHours(1)),
                a.flag("workload"),
                idleMin,
                idleMax,
                a.intValue("max-length", 4096, 1, 100_000_000),
                path,
                a.duration("timeout", Duration.ofSeconds(10), Duration.ofMillis(1), Duration.ofHours(1)),
                stats == null ? null : Targets.url("--stats-url", stats),
                pid,
                a.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE));
    }

    /** Width of net.ipv4.ip_local_port_range, the ephemeral ports per source address. */
    static int portRange() {
        try {
            String[] f = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .trim()
                    .split("\\s+");
            return Integer.parseInt(f[1]) - Integer.parseInt(f[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return 28_232; // the Linux default 32768..60999
        }
    }
}
