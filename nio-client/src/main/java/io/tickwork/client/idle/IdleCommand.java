package io.tickwork.client.idle;

import static io.tickwork.client.common.OptionValues.inRange;
import static io.tickwork.client.common.OptionValues.intInRange;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.HelpOption;
import io.tickwork.client.common.OpenFiles;
import io.tickwork.client.common.OptionValues.CountConverter;
import io.tickwork.client.common.OptionValues.DurationConverter;
import io.tickwork.client.common.OptionValues.SizeConverter;
import io.tickwork.client.common.OsError;
import io.tickwork.client.common.ReportOnSignal;
import io.tickwork.client.common.Targets;
import io.tickwork.client.common.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
            "open and hold N idle connections over many source addresses, optionally with the http-kit"
                    + " workload (idle 5-45 s, request, read, repeat)",
            "",
            "Opens N connections to any host and holds them idle, ramping at --step per second, each bound to"
                    + " the next of K source addresses of this machine (--first-source, +1, +2, ...; 127.0.0.2,"
                    + " 127.0.0.3, ... by default) so the ephemeral port range is per source address; against"
                    + " another host, give --first-source an address of the interface that reaches it (by default"
                    + " the kernel then picks the source). A line per second, with MemAvailable and the kernel's"
                    + " TCP sockets and memory. When the OS refuses (EMFILE, ENFILE, EADDRNOTAVAIL, ECONNREFUSED)"
                    + " it says which limit and how to raise it, then holds what it has until the end; so it does"
                    + " when MemAvailable falls below --min-available. Reports client (and, with"
                    + " --server-pid/--stats-url, server) memory per connection. With --processes N, N child JVMs"
                    + " share the run, each from its own source addresses (one process holds at most its open-file"
                    + " limit less " + FleetPlan.JVM_FILES + " connections), with one line a second and one report.",
            "",
            "Exit status: 0 a run that held what it could (a refusal by the OS or the memory guard included:"
                    + " the report says which); 1 after the report when not one connect succeeded, connects"
                    + " were refused after the server had closed connections it held (it went away), the"
                    + " --workload got no response, or (--processes) a child failed or gave no report; 2 a bad"
                    + " command line; 130, 143 ended by SIGINT, SIGTERM"
                    + " (after the report).",
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
                    + " at 90%% of the ephemeral port range (net.ipv4.ip_local_port_range) each, or 0"
                    + " against another host with a loopback --first-source; 0 = let the kernel choose)")
    Long sources;

    @Option(
            names = "--first-source",
            paramLabel = "IP",
            defaultValue = "127.0.0.2",
            description = "first source address, an IPv4 address of this machine; the next ones are +1, +2, ..."
                    + " (default ${DEFAULT-VALUE})")
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
            paramLabel = "PID[,PID..]",
            description = "the server's pid, or pids separated by commas: their summed RSS before and after the"
                    + " ramp, per connection (and each second with --processes)")
    String serverPid;

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "1",
            converter = CountConverter.class,
            description = "random seed for the workload (default ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--min-available",
            paramLabel = "SIZE",
            defaultValue = "3g",
            converter = SizeConverter.class,
            description = "memory guard: stop opening connections when MemAvailable (/proc/meminfo) falls"
                    + " below SIZE, and hold what is open (default ${DEFAULT-VALUE}; 512m, 3g; 0 = off)")
    long minAvailable;

    @Option(
            names = "--processes",
            paramLabel = "N",
            defaultValue = "1",
            converter = CountConverter.class,
            description = "client processes (own JVMs) to split -c, --step and --max-pending among, each from its own"
                    + " source addresses; one progress line a second and one report for all; the memory guard stops"
                    + " every ramp (default ${DEFAULT-VALUE}: this process alone)")
    long processes;

    /** Set on the command line of a child of --processes: JSON lines to stdout, commands from stdin. */
    @Option(names = "--child", hidden = true)
    boolean child;

    @Option(names = "--json", description = "print the final report as one JSON object on stdout (progress to stderr)")
    boolean json;

    @Option(names = "--quiet", description = "no per-second progress lines")
    boolean quiet;

    @Mixin
    HelpOption help = new HelpOption();

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
    public Integer call() throws IOException, InterruptedException {
        IdleConfig cfg = config();
        FleetPlan plan = fleetPlan(cfg);
        checkServerProbes(cfg);
        if (plan != null) {
            IdleFleet fleet = new IdleFleet(cfg, plan, out, err, json, quiet);
            // Ctrl-C or SIGTERM: the children end their holds, and their merged report still comes out
            return ReportOnSignal.run("idle", fleet::signalled, fleet::run, IdleFleet.REPORT_WAIT_SECONDS);
        }
        PrintStream human = json || child ? err : out;
        PrintStream progress = quiet ? null : human;
        human.printf(
                "idle: %d connections to %s from %s, %d/s%n",
                cfg.connections(), targetsText(cfg.targets()), sourcesText(cfg.sources()), cfg.step());
        if (cfg.minAvailable() > 0 && SystemMemory.readMemAvailable() < 0) {
            human.println("memory guard off: no MemAvailable in /proc/meminfo");
        }
        if (child) {
            return IdleChild.run(cfg, out, progress, System.in);
        }
        IdleHolder h = new IdleHolder(cfg, progress, progress == null ? null : IdleProgress.printer(progress));
        // Ctrl-C or SIGTERM: the hold ends early and its report still comes out
        return ReportOnSignal.run("idle", h::stop, () -> holdAndReport(cfg, h));
    }

    private int holdAndReport(IdleConfig cfg, IdleHolder h) throws IOException {
        IdleResult r = h.run();
        out.print(json ? r.toJson(cfg) + "\n" : r.toText());
        out.flush();
        // connects tried and not one made: nothing was held, as bench fails then (a guard that
        // stopped the ramp before any attempt is a result)
        if (r.peak() == 0 && r.attempts() > 0) {
            err.println("idle: not one of " + r.attempts() + " connects succeeded");
            return 1;
        }
        String noAnswer = workloadUnanswered(cfg, r);
        if (noAnswer != null) {
            err.println(noAnswer);
            return 1;
        }
        String gone = serverWentAway(r);
        if (gone != null) {
            err.println(gone);
            return 1;
        }
        return 0;
    }

    /**
     * A message if connects were refused after connections had been held and the server closed
     * some: nothing listens on the port any more (a full backlog drops a connect unless
     * {@code tcp_abort_on_overflow} is set, and then the held connections stay), so the server
     * stopped or died, and the run's figures are of a server that went away, not of a limit of
     * this machine; null otherwise.
     */
    static String serverWentAway(IdleResult r) {
        if (r.hardLimit() != OsError.ECONNREFUSED || r.peak() == 0 || r.closedByServer() == 0) {
            return null;
        }
        return "idle: connects were refused after " + r.peak() + " connections had been held: the server stopped"
                + " listening (it stopped or died), " + r.closedByServer() + " connections closed by it";
    }

    /**
     * With {@code --workload}: a message if requests failed and not one was answered (nothing of
     * the server's answers was measured, as {@code bench} fails then); null otherwise.
     */
    static String workloadUnanswered(IdleConfig cfg, IdleResult r) {
        if (!cfg.workload() || r.requests() > 0 || r.timeouts() + r.badResponses() + r.closedUnanswered() == 0) {
            return null;
        }
        return "idle: the workload got no response: " + r.timeouts() + " timeouts, " + r.badResponses()
                + " bad responses, " + r.closedUnanswered() + " closed unanswered";
    }

    /** The options, checked and resolved into a run. */
    IdleConfig config() {
        List<InetSocketAddress> targets =
                Targets.hostPorts(hostPort == null ? "--target" : "HOST:PORT", hostPort == null ? target : hostPort);
        int n = intInRange("--connections", connections, 1, 10_000_000);
        int perSource = connectionsPerSource();
        boolean remote = targets.stream().anyMatch(t -> !t.getAddress().isLoopbackAddress());
        InetAddress first = Targets.resolve("--first-source", firstSource);
        int k;
        if (sources != null) {
            k = intInRange("--sources", sources, 0, 65_536);
        } else if (remote && first.isLoopbackAddress()) {
            k = 0; // a loopback source cannot reach another host: the kernel picks the source
        } else {
            k = Math.max(1, (n + perSource - 1) / perSource);
        }
        if (remote && k > 0 && first.isLoopbackAddress()) {
            throw new UsageException("--first-source " + first.getHostAddress() + " is loopback and cannot reach "
                    + targets + ": give an address of the interface that reaches it, or --sources 0");
        }
        List<InetAddress> sourceList = k == 0 ? List.of() : SourceAddresses.from(first, k);
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
                serverPids(serverPid),
                seed,
                inRange("--min-available", minAvailable, 0L, Long.MAX_VALUE));
    }

    /** The split of the run among --processes children; null when this process runs it alone. */
    FleetPlan fleetPlan(IdleConfig cfg) {
        return fleetPlan(cfg, FleetPlan.openFileLimit());
    }

    /** {@link #fleetPlan(IdleConfig)} for processes that may each open {@code openFileLimit} files. */
    FleetPlan fleetPlan(IdleConfig cfg, long openFileLimit) {
        int n = intInRange("--processes", processes, 1, FleetPlan.MAX_PROCESSES);
        if (n == 1) {
            long most = FleetPlan.perProcess(openFileLimit);
            OpenFiles.check(
                    "--connections " + cfg.connections(),
                    cfg.connections(),
                    openFileLimit,
                    "use --processes " + (cfg.connections() + most - 1) / Math.max(1, most)
                            + " or more, or raise the hard limit (ulimit -Hn, LimitNOFILE=)");
            return null;
        }
        if (child) {
            throw new UsageException("a --child runs alone: --processes must be 1: " + n);
        }
        return FleetPlan.of(
                cfg,
                n,
                sources == null ? null : sources.intValue(),
                Targets.resolve("--first-source", firstSource),
                openFileLimit);
    }

    /**
     * What {@code --server-pid} and {@code --stats-url} name must answer before the run, or the
     * run would end with no server figures and no word why: each pid's {@code /proc/PID/status}
     * is read, and the stats URL must give a 2xx JSON object within 2 s.
     *
     * @throws UsageException naming the option and what failed
     */
    static void checkServerProbes(IdleConfig cfg) {
        for (long pid : cfg.serverPids()) {
            if (ProcMemory.rssBytes(Long.toString(pid)) < 0) {
                throw new UsageException(
                        "--server-pid " + pid + ": no such process, or its /proc/" + pid + "/status cannot be read");
            }
        }
        if (cfg.statsUrl() != null) {
            String url =
                    "http://" + cfg.statsUrl().hostHeader() + cfg.statsUrl().target();
            String body = HttpGet.body(cfg.statsUrl(), 2000);
            if (body == null) {
                throw new UsageException("--stats-url " + url + ": no 2xx answer within 2 s");
            }
            if (!body.startsWith("{")) {
                String start = body.length() > 60 ? body.substring(0, 60) + "..." : body;
                throw new UsageException(
                        "--stats-url " + url + ": the answer is not a JSON object: " + start.replaceAll("\\s+", " "));
            }
        }
    }

    /** {@code --server-pid 123,456}: the pids in order, each once; none without the option. */
    static List<Long> serverPids(String csv) {
        if (csv == null) {
            return List.of();
        }
        Set<Long> pids = new LinkedHashSet<>();
        for (String p : csv.split(",", -1)) {
            if (!p.trim().matches("[0-9]{1,18}")) {
                throw new UsageException("--server-pid must be a pid or pids separated by commas: " + csv);
            }
            pids.add(Long.parseLong(p.trim()));
        }
        return List.copyOf(pids);
    }

    /** {@code 127.0.0.1:9090}, or {@code 127.0.0.1:9090, 127.0.0.1:9091} for several targets. */
    static String targetsText(List<InetSocketAddress> targets) {
        StringBuilder sb = new StringBuilder();
        for (InetSocketAddress t : targets) {
            sb.append(sb.length() == 0 ? "" : ", ").append(Targets.text(t));
        }
        return sb.toString();
    }

    /** {@code source address 127.0.0.2}, {@code 3 source addresses 127.0.0.2..127.0.0.4}, or the kernel's choice. */
    static String sourcesText(List<InetAddress> sources) {
        if (sources.isEmpty()) {
            return "the kernel's choice of source";
        }
        String first = sources.get(0).getHostAddress();
        return sources.size() == 1
                ? "source address " + first
                : sources.size() + " source addresses " + first + ".."
                        + sources.get(sources.size() - 1).getHostAddress();
    }

    /** Connections per source address the default --sources plans for: 90% of the ephemeral port range. */
    static int connectionsPerSource() {
        return Math.max(1, (int) (portRange() * 0.9));
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
