package io.tickwork.client.idle;

import io.tickwork.client.common.OpenFiles;
import io.tickwork.client.common.Targets;
import io.tickwork.client.common.UsageException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@code idle --processes N} splits one run among N child processes, each its own JVM. Child
 * i gets an even share of the connections, of the ramp rate ({@code --step}) and of the connects
 * in flight ({@code --max-pending}), at least 1 of each, so together they ramp as one process
 * would; its own run of consecutive source addresses, disjoint from every other child's, so no two
 * children bind the same (address, port) and their 4-tuples cannot collide; seed + i for the
 * workload; every other option as given. The server's memory ({@code --server-pid}, {@code
 * --stats-url}) is measured by the parent alone.
 *
 * <p>One process holds at most its open-file limit (the hard {@code RLIMIT_NOFILE}: the JVM raises
 * its soft limit to it) less {@value #JVM_FILES} descriptors kept for the JVM itself (jars, the
 * selector, pipes, /proc reads): a share above that is refused before anything starts, with the
 * figures and the number of processes that would do. Immutable; built once from the parent's
 * validated options.
 */
final class FleetPlan {
    /** As many as the server starts: 256 processes of 19,000 connections are 4.8 million. */
    static final int MAX_PROCESSES = 256;
    /** Descriptors a child keeps for its JVM; the rest of its open-file limit is for connections. */
    static final int JVM_FILES = OpenFiles.JVM_FILES;
    /** The launcher a child runs; named, not imported: this package does not depend on its parent. */
    static final String MAIN = "io.tickwork.client.LoadTool";
    /**
     * A child's JVM options, for a small footprint, beside its heap ({@link #jvmOptions}). A child
     * is one selector thread holding about 800 B of live heap per idle connection (14.8 MB at
     * 17,978 in the C1600K run, docs/results/c1600k.md), and a few hundred more under
     * {@code --workload} (a parser per connection, its line buffer 128 B until a longer line
     * comes), so: the serial collector (no
     * GC threads, the least native memory; a full GC of that live set takes milliseconds); a heap
     * that starts at 16 MiB, so it is not sized from the machine's memory; and the C1 compiler
     * only (no C2 threads and arenas; the loop is not CPU-bound). Measured on JDK 17 holding 1,000
     * connections: RSS 61 MiB with the defaults (G1), 59 MiB serial with this heap, 50 MiB adding
     * C1 only; a smaller stack, code cache or no perf data file changed nothing.
     */
    static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xms16m", "-XX:TieredStopAtLevel=1");

    /**
     * {@link #JVM_OPTIONS} and the most heap for a child of {@code connections}: 2 KiB a
     * connection, more than twice the live set with a workload, over 32 MiB for the JVM's own,
     * and never below 128 MiB.
     */
    static List<String> jvmOptions(int connections) {
        long mib = Math.max(128, 32 + ((long) connections * 2048 >> 20));
        List<String> o = new ArrayList<>(JVM_OPTIONS);
        o.add("-Xmx" + mib + "m");
        return o;
    }

    private final List<IdleConfig> children;
    private final long perProcess;

    private FleetPlan(List<IdleConfig> children, long perProcess) {
        this.children = List.copyOf(children);
        this.perProcess = perProcess;
    }

    /**
     * The split of {@code whole} among {@code processes} children. {@code sourcesOption} is {@code
     * --sources} as given (null: enough per child at 90% of the port range each; 0: the kernel
     * chooses), {@code first} the {@code --first-source}, {@code openFileLimit} one process's
     * (-1: unknown, no check).
     */
    static FleetPlan of(IdleConfig whole, int processes, Integer sourcesOption, InetAddress first, long openFileLimit) {
        int c = whole.connections();
        if (processes > c) {
            throw new UsageException("--processes " + processes + " is more than --connections " + c
                    + ": each process needs at least one connection");
        }
        long limit = perProcess(openFileLimit);
        int most = share(c, processes, 0);
        if (most > limit) {
            throw new UsageException("--connections " + c + " over --processes " + processes + " is " + most
                    + " per process, more than one process can hold: at most " + limit + " (open-file limit "
                    + openFileLimit + " less " + (openFileLimit - limit) + " for the JVM); use --processes "
                    + (c + limit - 1) / limit + " or more, or raise the hard limit (ulimit -Hn, LimitNOFILE=)");
        }
        int[] k = new int[processes];
        if (!whole.sources().isEmpty() && (sourcesOption == null || sourcesOption > 0)) {
            if (sourcesOption != null && sourcesOption < processes) {
                throw new UsageException("--sources " + sourcesOption + " is fewer than --processes " + processes
                        + ": each process binds its own source addresses (--sources 0: the kernel chooses)");
            }
            int perSource = IdleCommand.connectionsPerSource();
            for (int i = 0; i < processes; i++) {
                k[i] = sourcesOption != null
                        ? share(sourcesOption, processes, i)
                        : (share(c, processes, i) + perSource - 1) / perSource;
            }
        }
        int total = 0;
        for (int n : k) {
            total += n;
        }
        List<InetAddress> all = total == 0 ? List.of() : SourceAddresses.from(first, total);
        List<IdleConfig> children = new ArrayList<>(processes);
        int from = 0;
        for (int i = 0; i < processes; i++) {
            children.add(new IdleConfig(
                    whole.targets(),
                    all.subList(from, from + k[i]),
                    share(c, processes, i),
                    Math.max(1, share(whole.step(), processes, i)),
                    Math.max(1, share(whole.maxPending(), processes, i)),
                    whole.duration(),
                    whole.hold(),
                    whole.connectTimeout(),
                    whole.workload(),
                    whole.idleMin(),
                    whole.idleMax(),
                    whole.maxLength(),
                    whole.path(),
                    whole.timeout(),
                    null,
                    List.of(),
                    whole.seed() + i,
                    whole.minAvailable()));
            from += k[i];
        }
        return new FleetPlan(children, limit);
    }

    /** Child {@code i}'s part of {@code total}: {@code total / n}, one more for the first {@code total % n}. */
    static int share(int total, int n, int i) {
        return total / n + (i < total % n ? 1 : 0);
    }

    /** Connections one process can hold with {@code openFileLimit} descriptors (-1: no bound known). */
    static long perProcess(long openFileLimit) {
        return OpenFiles.connections(openFileLimit);
    }

    int size() {
        return children.size();
    }

    IdleConfig child(int i) {
        return children.get(i);
    }

    /** Connections one process may hold here; {@link Long#MAX_VALUE} where the limit is not known. */
    long perProcess() {
        return perProcess;
    }

    /** The command line starting child {@code i}: this JVM's java and class path, {@link #jvmOptions}. */
    List<String> command(int i) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions(child(i).connections()));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MAIN);
        cmd.addAll(arguments(child(i)));
        return cmd;
    }

    /** The {@code idle --child} options that give {@code c} when parsed (durations in whole microseconds). */
    static List<String> arguments(IdleConfig c) {
        List<String> a = new ArrayList<>(List.of("idle", "--child"));
        StringBuilder targets = new StringBuilder();
        for (InetSocketAddress t : c.targets()) {
            targets.append(targets.length() == 0 ? "" : ",").append(Targets.text(t));
        }
        add(a, "--target", targets.toString());
        add(a, "--connections", Integer.toString(c.connections()));
        add(a, "--step", Integer.toString(c.step()));
        add(a, "--max-pending", Integer.toString(c.maxPending()));
        add(a, "--sources", Integer.toString(c.sources().size()));
        if (!c.sources().isEmpty()) {
            add(a, "--first-source", c.sources().get(0).getHostAddress());
        }
        add(a, "--duration", micros(c.duration()));
        add(a, "--hold", micros(c.hold()));
        add(a, "--connect-timeout", micros(c.connectTimeout()));
        if (c.workload()) {
            a.add("--workload");
        }
        add(a, "--idle-min", micros(c.idleMin()));
        add(a, "--idle-max", micros(c.idleMax()));
        add(a, "--max-length", Integer.toString(c.maxLength()));
        add(a, "--path", c.path());
        add(a, "--timeout", micros(c.timeout()));
        add(a, "--seed", Long.toString(c.seed()));
        add(a, "--min-available", Long.toString(c.minAvailable()));
        return a;
    }

    private static void add(List<String> a, String option, String value) {
        a.add(option);
        a.add(value);
    }

    private static String micros(Duration d) {
        return d.toNanos() / 1000 + "us";
    }

    /** This process's hard limit on open files; -1 where unknown or unlimited ({@link OpenFiles#limit}). */
    static long openFileLimit() {
        return OpenFiles.limit();
    }
}
