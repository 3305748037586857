package io.tickwork.server.client.idle;

import static io.tickwork.server.client.common.OptionValues.inRange;
import static io.tickwork.server.client.common.OptionValues.intInRange;

import io.tickwork.server.client.common.Fmt;
import io.tickwork.server.client.common.OptionValues.CountConverter;
import io.tickwork.server.client.common.OptionValues.DurationConverter;
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
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code idle} subcommand: its options (picocli), the validated {@link IdleConfig}, the run
 * and the report. One instance per command line; not thread safe.
 */
@Command(
        name = "idle",
        sortOptions = false,
        abbreviateSynopsis = true,
        description = {
            "open and hold N idle connections over many loopback source addresses, optionally with the"
                    + " http-kit workload (idle 5-45 s, request, read, repeat)",
            "",
            "Opens N connections and holds them idle, ramping at --step per second, each bound to the next of"
                    + " K loopback source addresses (127.0.0.2, 127.0.0.3, ...) so the ephemeral port range is"
                    + " per source address. A line per second. When the OS refuses (EMFILE, ENFILE,"
                    + " EADDRNOTAVAIL, ECONNREFUSED) it says which limit and how to raise it, then holds what it"
                    + " has until the end. Reports client (and, with --server-pid/--stats-url, server) memory per"
                    + " connection. Loopback targets only.",
            ""
        })
public final class IdleCommand implements Callable<Integer> {

    @Parameters(paramLabel = "HOST:PORT", arity = "0..1", description = "the server, instead of --target")
    String hostPort;

    @Option(
            names = "--target",
            paramLabel = "HOST:PORT[,..]",
            defaultValue = "127.0.0.1:9090",
            description = "server(s) to connect to, round robin (default ${DEFAULT-VALUE}, the dictionary server's)")
    String target;

    @Option(
            names = {"-c", "--connections"},
            paramLabel = "N",
            defaultValue = "10000",
            converter = CountConverter.class,
            description = "connections to open and hold (default ${DEFAULT-VALUE})")
    long connections;

    @Option(
            names = "--step",
            paramLabel = "N",
            defaultValue = "5000",
            converter = CountConverter.class,
            description = "ramp: new connections per second (default ${DEFAULT-VALUE})")
    long step;

    @Option(
            names = "--max-pending",
            paramLabel = "N",
            defaultValue = "1000",
            converter = CountConverter.class,
            description = "connects in flight at once (default ${DEFAULT-VALUE})")
    long maxPending;

    @Option(
            names = "--sources",
            paramLabel = "K",
            converter = CountConverter.class,
            description = "source addresses to bind before connect, from --first-source (default: enough for N"
                    + " at ~28k ports each; 0 = let the kernel choose)")
    Long sources;

    @Option(
            names = "--first-source",
            paramLabel = "IP",
            defaultValue = "127.0.0.2",
            description = "first source address (default ${DEFAULT-VALUE})")
    String firstSource;

    @Option(
            names = {"-D", "--duration"},
            paramLabel = "TIME",
            defaultValue = "60s",
            converter = DurationConverter.class,
            description = "hard bound on the whole run (default ${DEFAULT-VALUE})")
    Duration duration;

    @Option(
            names = "--hold",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "how long to hold after the ramp ends (default: until --duration)")
    Duration hold;

    @Option(
            names = "--connect-timeout",
            paramLabel = "TIME",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "a connect unfinished this long fails (default ${DEFAULT-VALUE})")
    Duration connectTimeout;

    @Option(
            names = "--workload",
            description = "http-kit workload: idle a random time, GET PATH?len=L (L random in 1..--max-length),"
                    + " read the response, repeat")
    boolean workload;

    @Option(
            names = "--idle-min",
            paramLabel = "TIME",
            defaultValue = "5s",
            converter = DurationConverter.class,
            description = "workload: shortest idle time (default ${DEFAULT-VALUE})")
    Duration idleMin;

    @Option(
            names = "--idle-max",
            paramLabel = "TIME",
            defaultValue = "45s",
            converter = DurationConverter.class,
            description = "workload: longest idle time (default ${DEFAULT-VALUE})")
    Duration idleMax;

    @Option(
            names = "--max-length",
            paramLabel = "L",
            defaultValue = "4096",
            converter = CountConverter.class,
            description = "workload: largest len parameter (default ${DEFAULT-VALUE})")
    long maxLength;

    @Option(
            names = "--path",
            paramLabel = "PATH",
            defaultValue = "/",
            description = "workload: request path (default ${DEFAULT-VALUE})")
    String path;

    @Option(
            names = "--timeout",
            paramLabel = "TIME",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "workload: response timeout (default ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(
            names = "--stats-url",
            paramLabel = "URL",
            description = "the server's stats document (e.g. http://127.0.0.1:8080/stats), printed before and at"
                    + " the end of the ramp")
    String statsUrl;

    @Option(
            names = "--server-pid",
            paramLabel = "PID",
            description = "the server's pid: its RSS before and after the ramp, per connection")
    String serverPid;

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "1",
            converter = CountConverter.class,
            description = "random seed for the workload (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--json", description = "print the final report as one JSON object on stdout (progress to stderr)")
    boolean json;

    @Option(names = "--quiet", description = "no per-second progress lines")
    boolean quiet;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "this text")
    boolean help;

    private final PrintStream out;
    private final PrintStream err;

    IdleCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The {@code idle} command: output to {@code out}; with --json, header and progress to {@code err}. */
    public static CommandLine commandLine(PrintStream out, PrintStream err) {
        return new CommandLine(new IdleCommand(out, err));
    }

    @Override
    public Integer call() throws IOException {
        IdleConfig cfg = config();
        PrintStream progress = quiet ? null : json ? err : out;
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

    /** The options, checked and resolved into a run. */
    IdleConfig config() {
        List<InetSocketAddress> targets = Targets.hostPorts("--target", hostPort == null ? target : hostPort);
        int n = intInRange("--connections", connections, 1, 10_000_000);
        int perSource = Math.max(1, (int) (portRange() * 0.9));
        int k = sources == null
                ? Math.max(1, (n + perSource - 1) / perSource)
                : intInRange("--sources", sources, 0, 65_536);
        InetAddress first = Targets.loopback("--first-source", firstSource);
        List<InetAddress> sourceList = new ArrayList<>();
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
                sourceList.add(InetAddress.getByAddress(
                        new byte[] {(byte) (x >>> 24), (byte) (x >>> 16), (byte) (x >>> 8), (byte) x}));
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        Duration runFor = inRange("--duration", duration, Duration.ofMillis(100), Duration.ofDays(1));
        Duration holdFor = inRange("--hold", hold == null ? runFor : hold, Duration.ZERO, Duration.ofDays(1));
        Duration shortest = inRange("--idle-min", idleMin, Duration.ZERO, Duration.ofHours(1));
        Duration longest = inRange("--idle-max", idleMax, Duration.ZERO, Duration.ofHours(1));
        if (longest.compareTo(shortest) < 0) {
            throw new UsageException("--idle-max must be >= --idle-min: " + Fmt.duration(longest));
        }
        if (!path.startsWith("/") || path.chars().anyMatch(c -> c <= ' ' || c >= 0x7f)) {
            throw new UsageException("--path must start with / and be encoded: " + path);
        }
        if (serverPid != null && !serverPid.matches("[0-9]+")) {
            throw new UsageException("--server-pid must be a number: " + serverPid);
        }
        return new IdleConfig(
                targets,
                sourceList,
                n,
                intInRange("--step", step, 1, 10_000_000),
                intInRange("--max-pending", maxPending, 1, 1_000_000),
                runFor,
                holdFor,
                inRange("--connect-timeout", connectTimeout, Duration.ofMillis(1), Duration.ofHours(1)),
                workload,
                shortest,
                longest,
                intInRange("--max-length", maxLength, 1, 100_000_000),
                path,
                inRange("--timeout", timeout, Duration.ofMillis(1), Duration.ofHours(1)),
                statsUrl == null ? null : Targets.url("--stats-url", statsUrl),
                serverPid,
                seed);
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
