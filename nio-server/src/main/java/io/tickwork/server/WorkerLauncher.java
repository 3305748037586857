package io.tickwork.server;

import io.tickwork.server.dict.Dictionary;
import io.tickwork.server.dict.DictionaryHandler;
import io.tickwork.server.http.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnsupportedAddressTypeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --processes N}: the server as N worker JVMs sharing one port with {@code SO_REUSEPORT},
 * so that it holds more connections than one process's descriptor limit allows. This process, the
 * launcher, serves nothing: it starts the workers ({@link #command}), forwards their output line by
 * line with a {@code [w0]}, {@code [w1]}... prefix, prints one start line once every worker
 * listens, and supervises them.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>The start line ({@link #startLine}) appears only when every worker listens on the shared
 *       port; it names each worker's pid and the URL of its private {@code /stats}, a second
 *       listener on an ephemeral port whose {@code /stats} reports that worker's shared listener
 *       (a {@code /stats} on the shared port reaches whichever worker the kernel picks).</li>
 *   <li>SIGTERM, SIGINT or SIGHUP to the launcher sends SIGTERM to every worker; the launcher
 *       exits when all have, 0 if all stopped as asked (exit 0, or 143, 130 and 129: ended by
 *       SIGTERM or by a terminal's SIGINT or hang-up before their handler was installed), else 1
 *       naming each worker that did not. A Ctrl-C or a hang-up, which reach the workers too, is
 *       such a stop, even where a worker's exit is seen before the launcher's own signal.</li>
 *   <li>A worker that fails while serving (it exits with a status other than a stop's: killed by
 *       SIGKILL or the OOM killer, crashed, or exited non-zero) is started again with the same
 *       index and options, and the others serve on; its connections are lost, and until the new
 *       worker listens the kernel hashes new connections over the others. The launcher says why on stderr and, once the
 *       new worker listens, its pid and private {@code /stats} URL on stdout.</li>
 *   <li>A worker's fourth failure within {@link #RESTART_WINDOW_SECONDS} s (failures before a
 *       restarted worker serves count too), a restarted worker that does not serve within 60 s,
 *       and a worker that exits as a stop would (0, or 143, 130 or 129: someone stopped it alone)
 *       make the launcher stop the others and exit 1, naming the worker and its exit status: a
 *       restart would not mend that.</li>
 *   <li>However the launcher ends, even by SIGKILL, its workers stop: each reads its standard
 *       input, a pipe whose other end only the launcher holds, and stops gracefully at its end.</li>
 *   <li>The launcher refuses a port something already listens on, picks one for {@code --port 0},
 *       and holds it with a bound, non-listening socket until every worker listens, so no other
 *       program can take it in between.</li>
 * </ul>
 *
 * <p>Cost: N JVMs; with {@link #DEFAULT_JVM_OPTS} an idle worker is about 75 MB resident, half
 * of it file pages shared by all workers (the mapped dictionary, the JDK's class data archive and
 * libraries). The launcher adds two threads and three pipes per worker.
 *
 * <p>Thread safety: {@link #run} runs on one thread; the pumps, the workers' exit callbacks and the
 * signal handler only put events on a queue that thread takes from.
 */
final class WorkerLauncher {
    /**
     * JVM options for every worker, before {@code --worker-jvm-opts}. Serial GC: no parallel GC
     * threads and no G1 region tables, for a live heap of a few MB plus about 780 bytes per idle
     * connection (15 MB at {@link #DEFAULT_CONNECTIONS}). {@code -Xms8m}: the young generation
     * starts small and the heap grows only as the live set does; with {@code -Xmx128m} alone the
     * initial heap is 128 MB and an idle worker touches more of it than G1 would. {@code -Xmx128m}
     * holds the connections' live set several times over. The code cache and metaspace caps bound
     * a worker's worst case far above its use (3 MB of code and 9 MB of metaspace after a few
     * hundred requests). C2 stays on up to {@link #C2_WORKERS_PER_CORE} workers a core (see
     * {@link #C1_ONLY}). Measured on JDK 17 (docs/server.md, "Several processes"): an idle worker
     * 72 to 76 MB resident, 34 to 39 MB of it anonymous, against 80 to 82 MB and 42 to 44 MB with
     * the JVM's defaults.
     */
    static final String DEFAULT_JVM_OPTS =
            "-XX:+UseSerialGC -Xms8m -Xmx128m -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=64m";

    /**
     * {@link #DEFAULT_JVM_OPTS} one a line, for {@code --help}: its column would otherwise wrap
     * inside an option ("-XX:" then "MaxMetaspaceSize=64m"), which reads as two options.
     */
    static final String DEFAULT_JVM_OPTS_HELP =
            "  -XX:+UseSerialGC%n  -Xms8m%n  -Xmx128m%n  -XX:ReservedCodeCacheSize=64m%n  -XX:MaxMetaspaceSize=64m";

    /**
     * Added to {@link #DEFAULT_JVM_OPTS} above {@link #C2_WORKERS_PER_CORE} workers a core: C1 code
     * only. Each worker then sees a small share of the requests, so C2 reaches its thresholds late
     * and N workers compile the same methods N times over; C1 compiles cheaply and early. On 2
     * cores C2 is ahead up to 16 workers and C1-only from 32 on (figures in
     * {@code docs/results/c1600k.md}).
     */
    static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    /** Up to this many workers a core keep C2; more get {@link #C1_ONLY}. */
    static final int C2_WORKERS_PER_CORE = 8;

    /**
     * A worker's default connection cap: under a 20,000-descriptor limit it leaves 1,000 for the
     * JVM's own files (jars, selectors, pipes, the stats listener).
     */
    static final int DEFAULT_CONNECTIONS = 19_000;

    /** Descriptors a worker needs besides its connections; fewer left under the cap gets a warning. */
    private static final int DESCRIPTOR_HEADROOM = 500;

    private static final long START_TIMEOUT_SECONDS = 60;
    /**
     * A worker that has not exited this long after its drain timeout ({@code --drain-timeout})
     * ended is killed: its JVM's exit, the final lines.
     */
    private static final long STOP_SLACK_SECONDS = 25;
    /** Exit status of a JVM ended by SIGTERM before its handler was installed (128 + 15). */
    private static final int SIGTERM_STATUS = 143;
    /**
     * Exit status of a JVM ended by SIGINT before its handler was installed (128 + 2): a Ctrl-C in
     * a terminal reaches every process of the foreground group, the workers with the launcher.
     */
    private static final int SIGINT_STATUS = 130;
    /**
     * Exit status of a JVM ended by SIGHUP before its handler was installed (128 + 1): a hang-up
     * reaches every process started from that terminal, the workers with the launcher.
     */
    private static final int SIGHUP_STATUS = 129;
    /**
     * How long a worker that stopped as if asked (exit 0, 129, 130, 143) waits for the launcher's own
     * stop signal before it counts as stopped alone: the delay a lone worker's stop adds.
     */
    private static final long SIGNAL_GRACE_MILLIS = 500;

    /** A worker's start line: index, shared URL, private stats URL, summary. */
    static final Pattern WORKER_LINE = Pattern.compile("^tickwork worker (\\d+): (\\S+), stats (\\S+)  \\((.*)\\)$");

    static String workerLine(int index, String url, String statsUrl, String summary) {
        return "tickwork worker " + index + ": " + url + ", stats " + statsUrl + "  (" + summary + ")";
    }

    private record Ready(int index, String url, String statsUrl, String summary) {}

    private record Exited(int index, int status) {}

    /**
     * Restarts one worker may have within {@link #RESTART_WINDOW_SECONDS}: a worker that fails more
     * often crashes for a cause a restart does not remove, and the launcher stops the service.
     */
    static final int RESTARTS_PER_WINDOW = 3;

    static final long RESTART_WINDOW_SECONDS = 60;

    /** Per worker, when each of its last {@link #RESTARTS_PER_WINDOW} restarts began, a ring; 0: none. */
    private long[][] restartedAt;
    /** Per worker, how many restarts it has had. */
    private int[] restarts;
    /** Per worker, the time its restart must serve by; only where {@link #restarting} is set. */
    private long[] restartDeadline;

    private boolean[] restarting;

    private static final Object STOP = new Object();
    /** How long a failed start waits for a stop that may have caused it. */
    private static final long START_FAILURE_GRACE_MILLIS = 1_000;

    /** Whether a stop comes within {@code millis}; other events read meanwhile are dropped (the run is ending). */
    private boolean stopRequestedWithin(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            if (events.poll(left, TimeUnit.NANOSECONDS) == STOP) {
                return true;
            }
        }
        return false;
    }

    private final ServerOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    /** Appended to by {@link #run}'s thread only; copy-on-write for the shutdown hook. */
    private final List<Process> workers = new CopyOnWriteArrayList<>();
    /** {@link #stopAll} has begun sending the workers their SIGTERM: a later signal is passed on. */
    private volatile boolean stopping;
    /** Set once {@link #endWorkersDrains} has told the workers. */
    private final java.util.concurrent.atomic.AtomicBoolean drainsEnded =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * A second stop signal, passed on: each worker is told through its standard input (a byte,
     * which {@link #onLauncherGone} reads) to close the connections it still drains. Not a second
     * SIGTERM: Linux merges a signal sent while the same one is still pending, so a second SIGTERM
     * sent just after the first would often be lost. Once; any thread.
     */
    private void endWorkersDrains() {
        if (!drainsEnded.compareAndSet(false, true)) {
            return;
        }
        for (Process p : workers) {
            try {
                java.io.OutputStream in = p.getOutputStream();
                in.write(END_DRAIN);
                in.flush();
            } catch (IOException gone) {
                // the worker has exited: nothing left to drain
            }
        }
    }

    /** The byte that tells a worker to end its drain now ({@link #endWorkersDrains}). */
    static final int END_DRAIN = 'x';

    /** Stop signals this launcher has received. */
    private final java.util.concurrent.atomic.AtomicInteger signals = new java.util.concurrent.atomic.AtomicInteger();

    private final List<Thread> pumps = new ArrayList<>();

    private WorkerLauncher(ServerOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Starts {@code o.processes} workers and supervises them until they stop; the exit code. */
    static int run(ServerOptions o, PrintStream out, PrintStream err) {
        return new WorkerLauncher(o, out, err).run();
    }

    private int run() {
        SocketChannel hold;
        try {
            hold = reservePort(options.host, options.port);
        } catch (IOException | UnsupportedOperationException | UnsupportedAddressTypeException e) {
            err.println("tickwork: cannot listen on " + options.host + ":" + options.port + ": " + reason(e));
            return 1;
        }
        warnIfDescriptorsShort();
        Signals.onTermination(() -> {
            int n = signals.incrementAndGet();
            if (stopping) { // the workers drain already (a stop asked, or a worker died): end that now
                endWorkersDrains();
            } else if (n == 1) {
                events.add(STOP);
            } // else stopAll has not begun: it ends the drains itself (it reads the count)
        });
        // other ways this JVM may end (System.exit, a signal ignored at start and so not handled):
        // SIGTERM to the workers still running
        Thread hook = new Thread(() -> workers.forEach(p -> p.toHandle().destroy()), "tickwork-launcher-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return supervise(hold, ((InetSocketAddress) hold.getLocalAddress()).getPort());
        } catch (IOException e) {
            err.println("tickwork: " + e.getMessage());
            stopAll(FAILED);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopAll(FAILED);
            return 1;
        } finally {
            closeQuietly(hold);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook is running or ran
            }
        }
    }

    private int supervise(SocketChannel hold, int port) throws IOException, InterruptedException {
        int n = options.processes;
        for (int i = 0; i < n; i++) {
            try {
                start(i, port);
            } catch (IOException e) {
                // a terminal's Ctrl-C reaches the process group at once: the JDK's spawn helper of
                // a worker being started dies of it, and the start fails; the launcher's own SIGINT
                // follows within moments, and then the run was stopped, not failed
                if (stopRequestedWithin(START_FAILURE_GRACE_MILLIS)) {
                    err.println("tickwork: " + e.getMessage() + "; a stop came, so the run stops");
                    return stopAll(-1);
                }
                throw e;
            }
        }
        Ready[] ready = new Ready[n];
        int started = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (started < n) {
            Object e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                err.println("tickwork: " + (n - started) + " of " + n + " workers not serving after "
                        + START_TIMEOUT_SECONDS + " s; stopping them");
                stopAll(FAILED);
                return 1;
            }
            if (e == STOP) {
                return stopAll(-1);
            }
            if (e instanceof Exited x) {
                return died(x, " before it served");
            }
            Ready r = (Ready) e;
            if (ready[r.index()] == null) {
                ready[r.index()] = r;
                started++;
            }
        }
        closeQuietly(hold); // every worker listens: the port stays theirs
        out.println(startLine(ready));
        out.flush();
        restartedAt = new long[n][RESTARTS_PER_WINDOW];
        restarts = new int[n];
        restartDeadline = new long[n];
        restarting = new boolean[n];
        while (true) {
            int late = earliestRestart();
            Object e = late < 0
                    ? events.take()
                    : events.poll(restartDeadline[late] - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                err.println("tickwork: worker " + late + " (pid "
                        + workers.get(late).pid() + ") restarted " + START_TIMEOUT_SECONDS
                        + " s ago and not serving; stopping it and the others");
                stopAll(late);
                return 1;
            }
            if (e == STOP) {
                return stopAll(-1);
            }
            if (e instanceof Ready r) {
                if (restarting[r.index()]) {
                    restarting[r.index()] = false;
                    out.println("tickwork: worker " + r.index() + " restarted: pid="
                            + workers.get(r.index()).pid() + " stats=" + r.statsUrl());
                    out.flush();
                }
                continue;
            }
            Exited x = (Exited) e;
            String when = restarting[x.index()] ? " before it served" : "";
            if (stoppedAsAsked(x.status())) {
                return died(x, when); // someone stopped it: not a failure a restart would mend
            }
            if (restartsWithinWindow(x.index()) == RESTARTS_PER_WINDOW) {
                return died(
                        x,
                        when + ", its " + (RESTARTS_PER_WINDOW + 1) + "th failure within " + RESTART_WINDOW_SECONDS
                                + " s");
            }
            int ended = restart(x, when, port);
            if (ended >= 0) {
                return ended;
            }
        }
    }

    /** The restarting worker whose deadline comes first, or -1 if none is restarting. */
    private int earliestRestart() {
        int first = -1;
        for (int i = 0; i < restarting.length; i++) {
            if (restarting[i] && (first < 0 || restartDeadline[i] - restartDeadline[first] < 0)) {
                first = i;
            }
        }
        return first;
    }

    private int restartsWithinWindow(int index) {
        long now = System.nanoTime();
        int within = 0;
        for (int k = 0; k < Math.min(restarts[index], RESTARTS_PER_WINDOW); k++) {
            if (now - restartedAt[index][k] < TimeUnit.SECONDS.toNanos(RESTART_WINDOW_SECONDS)) {
                within++;
            }
        }
        return within;
    }

    /**
     * Starts a worker in place of {@code x}'s, which failed ({@code when}: "" while serving, or
     * " before it served" after a restart); -1 if it started, else the run's exit status (the
     * others stopped, the reason printed): a start that fails is the end of the run, a stop if a
     * stop signal follows within {@link #START_FAILURE_GRACE_MILLIS} (a terminal's Ctrl-C kills
     * the JDK's spawn helper too).
     */
    private int restart(Exited x, String when, int port) throws InterruptedException {
        int i = x.index();
        joinPumps(i); // its last lines first: they say why it failed
        err.println("tickwork: worker " + i + " (pid " + workers.get(i).pid() + ") exited with status " + x.status()
                + when + "; restarting it");
        long now = System.nanoTime();
        restartedAt[i][restarts[i]++ % RESTARTS_PER_WINDOW] = now;
        restartDeadline[i] = now + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        restarting[i] = true;
        try {
            start(i, port);
            return -1;
        } catch (IOException e) {
            if (stopRequestedWithin(START_FAILURE_GRACE_MILLIS)) {
                err.println("tickwork: " + e.getMessage() + "; a stop came, so the run stops");
            } else {
                err.println("tickwork: " + e.getMessage() + "; stopping the others");
            }
            return stopAll(i); // 1: worker i failed, and its failure is not mended
        }
    }

    private void joinPumps(int index) {
        for (int k = 2 * index; k < 2 * index + 2 && k < pumps.size(); k++) {
            try {
                pumps.get(k).join(1_000); // it has exited: its pipes end, unless a grandchild holds them
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
    }

    /**
     * {@code tickwork dictionary: URL  N processes: w0 pid=P stats=URL, w1 pid=P stats=URL...  (per
     * worker: SUMMARY)}, the URL first as in the one-process start line.
     */
    private String startLine(Ready[] ready) {
        StringBuilder s = new StringBuilder("tickwork dictionary: ")
                .append(ready[0].url())
                .append("  ")
                .append(ready.length)
                .append(" processes: ");
        for (int i = 0; i < ready.length; i++) {
            s.append(i == 0 ? "" : ", ")
                    .append('w')
                    .append(i)
                    .append(" pid=")
                    .append(workers.get(i).pid())
                    .append(" stats=")
                    .append(ready[i].statsUrl());
        }
        return s.append("  (per worker: ")
                .append(ready[0].summary())
                .append(')')
                .toString();
    }

    private void start(int index, int port) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(command(options, index, port)).start();
        } catch (IOException e) {
            throw new IOException("cannot start worker " + index + ": " + e.getMessage(), e);
        }
        // pumps 2i and 2i + 1 are worker i's stdout and stderr (joinPumps joins them); a restart
        // takes its predecessor's places
        Thread stdout = pump(index, p.getInputStream(), out, true);
        Thread stderr = pump(index, p.getErrorStream(), err, false);
        if (index < workers.size()) {
            workers.set(index, p);
            pumps.set(2 * index, stdout);
            pumps.set(2 * index + 1, stderr);
        } else {
            workers.add(p);
            pumps.add(stdout);
            pumps.add(stderr);
        }
        p.onExit().thenAccept(x -> events.add(new Exited(index, x.exitValue())));
    }

    /**
     * Copies a worker's output to {@code to} line by line with its {@code [wI]} prefix; on stdout
     * the worker's start line is taken as its {@link Ready} event instead.
     */
    private Thread pump(int index, InputStream in, PrintStream to, boolean stdout) {
        Thread t = new Thread(
                () -> {
                    boolean serving = !stdout;
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            Matcher m = serving ? null : WORKER_LINE.matcher(line);
                            if (m != null && m.matches()) {
                                serving = true;
                                events.add(new Ready(index, m.group(2), m.group(3), m.group(4)));
                            } else {
                                to.println("[w" + index + "] " + line);
                            }
                        }
                    } catch (IOException closed) {
                        // the worker's end is gone
                    }
                },
                "tickwork-w" + index + (stdout ? "-out" : "-err"));
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Whether a stop signal reaches the launcher within {@link #SIGNAL_GRACE_MILLIS}: a signal to
     * the whole process group is handled in each process in its own time. Other events taken
     * meanwhile are dropped; {@link #stopAll} reads every worker's status itself.
     */
    private boolean stopFollows() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SIGNAL_GRACE_MILLIS);
        try {
            for (Object e; (e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) != null; ) {
                if (e == STOP) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static boolean stoppedAsAsked(int status) {
        return status == 0 || status == SIGTERM_STATUS || status == SIGINT_STATUS || status == SIGHUP_STATUS;
    }

    private int died(Exited x, String when) {
        if (stoppedAsAsked(x.status()) && stopFollows()) {
            // the launcher was told to stop too, as a Ctrl-C tells every process of its group: the
            // worker's exit was merely seen first
            return stopAll(-1);
        }
        joinPumps(x.index()); // the worker's last lines first (a JVM that could not start says why there)
        err.println("tickwork: worker " + x.index() + " (pid "
                + workers.get(x.index()).pid() + ") exited with status " + x.status() + when + "; stopping the others");
        stopAll(x.index());
        return 1; // the service is down whatever the worker's status: a supervisor must see a failure
    }

    /** {@link #stopAll}'s {@code reported} after a failure already told: no "all stopped" line. */
    private static final int FAILED = Integer.MAX_VALUE;

    /**
     * SIGTERM to every worker (through the process handle: {@code Process.destroy()} would also
     * close our ends of their output pipes and lose their last lines), then waits for them; 0 if
     * all exited 0 (or 143, 130 or 129: ended by that SIGTERM, or by a terminal's SIGINT or SIGHUP,
     * before their handler was installed), else 1.
     * Each other exit status is reported, except worker {@code reported}'s (-1 or {@link #FAILED}:
     * none). "All stopped" is printed only when that is the run's whole story: every worker exited
     * 0 and {@code reported} is -1.
     */
    private int stopAll(int reported) {
        stopping = true;
        workers.forEach(p -> p.toHandle().destroy());
        if (signals.get() >= 2) { // a second signal came before the first SIGTERM went: pass it on too
            endWorkersDrains();
        }
        long stopSeconds = (options.drainTimeout.toMillis() + 999) / 1000 + STOP_SLACK_SECONDS;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(stopSeconds);
        int code = 0;
        boolean interrupted = false;
        for (int i = 0; i < workers.size(); i++) {
            Process p = workers.get(i);
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                    err.println("tickwork: worker " + i + " (pid " + p.pid() + ") still running after " + stopSeconds
                            + " s; killed");
                    code = 1;
                    continue;
                }
            } catch (InterruptedException e) {
                interrupted = true;
                p.destroyForcibly();
                code = 1;
                continue;
            }
            int status = p.exitValue();
            if (!stoppedAsAsked(status)) {
                if (i != reported) {
                    err.println("tickwork: worker " + i + " (pid " + p.pid() + ") exit status " + status);
                }
                code = 1;
            }
        }
        for (Thread t : pumps) {
            try {
                t.join(2_000); // the workers' last lines, unless a grandchild holds their pipes
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (code == 0 && reported < 0) { // after a worker died the run failed, however the others ended
            out.println(
                    workers.isEmpty()
                            ? "tickwork dictionary: stopped before a worker started"
                            : "tickwork dictionary: all " + workers.size()
                                    + (workers.size() == options.processes ? "" : " started") + " workers stopped");
        }
        out.flush();
        return code;
    }

    /**
     * The command line of worker {@code index}: this JVM's {@code java} and class path,
     * {@link #DEFAULT_JVM_OPTS} (and {@link #C1_ONLY} for many workers), this JVM's
     * {@code tickwork.*} system properties, {@code --worker-jvm-opts}, then the server options with
     * {@code port} and the worker's connection cap.
     */
    static List<String> command(ServerOptions o, int index, int port) {
        return command(o, index, port, Runtime.getRuntime().availableProcessors());
    }

    /** {@link #command(ServerOptions, int, int)} as on a machine of {@code cores}. */
    static List<String> command(ServerOptions o, int index, int port, int cores) {
        List<String> c = new ArrayList<>();
        // java.home is the running JVM's own; ProcessHandle's command may be absent or a launcher script
        c.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(Arrays.asList(DEFAULT_JVM_OPTS.split(" ")));
        if (o.processes > C2_WORKERS_PER_CORE * cores) {
            c.add(C1_ONLY);
        }
        Map<String, String> props = new TreeMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("tickwork.")) {
                props.put(k.toString(), v.toString());
            }
        });
        props.forEach((k, v) -> c.add("-D" + k + "=" + v));
        if (o.workerJvmOpts != null) {
            c.addAll(Arrays.asList(o.workerJvmOpts.split(" ")));
        }
        c.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        c.addAll(List.of(
                "--worker-index", Integer.toString(index),
                "--host", o.host,
                "--port", Integer.toString(port),
                "--threads", Integer.toString(o.workerThreads(cores)),
                "--idle-timeout", o.idleTimeout.toMillis() + "ms",
                "--header-timeout", o.headerTimeout.toMillis() + "ms",
                "--drain-timeout", o.drainTimeout.toMillis() + "ms",
                "--timer", o.timer,
                "--workers", Integer.toString(o.workers),
                "--cached-words", Integer.toString(o.cachedWords),
                "--max-connections", Integer.toString(o.connectionCap())));
        if (o.data != null) {
            c.addAll(List.of("--data", o.data.toString()));
        }
        if (o.responseTimeout != null) {
            c.addAll(List.of("--response-timeout", o.responseTimeout.toMillis() + "ms"));
        }
        return c;
    }

    /**
     * Binds (without listening) a socket with {@code SO_REUSEPORT} to {@code host:port}, so the
     * workers can bind the same port (a program binding with {@code SO_REUSEADDR} still can too,
     * and listen first: then a worker fails to listen). A port someone already listens on is
     * refused first: a listener with {@code SO_REUSEPORT} of the same user would otherwise share
     * the port with the workers and take a part of their connections.
     */
    static SocketChannel reservePort(String host, int port) throws IOException {
        InetSocketAddress address = new InetSocketAddress(host, port);
        // the family the workers' listeners take (HttpServer): an IPv4 host, an IPv4 socket
        boolean v4 = address.getAddress() instanceof java.net.Inet4Address;
        if (port != 0) {
            try (SocketChannel probe =
                    v4 ? SocketChannel.open(java.net.StandardProtocolFamily.INET) : SocketChannel.open()) {
                probe.setOption(StandardSocketOptions.SO_REUSEADDR, true); // TIME_WAIT is no obstacle
                probe.bind(address);
            }
        }
        SocketChannel hold = v4 ? SocketChannel.open(java.net.StandardProtocolFamily.INET) : SocketChannel.open();
        try {
            hold.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            hold.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            hold.bind(address);
        } catch (IOException | RuntimeException e) {
            hold.close();
            throw e;
        }
        return hold;
    }

    private void warnIfDescriptorsShort() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long limit = unix.getMaxFileDescriptorCount(); // what each worker inherits
            if (options.connectionCap() > limit - DESCRIPTOR_HEADROOM) {
                err.println("tickwork: warning: a worker may open " + limit + " files, too few for "
                        + options.connectionCap() + " connections and the JVM's own " + DESCRIPTOR_HEADROOM
                        + "; accept will fail below the cap (the worker backs off and keeps serving)");
            }
        }
    }

    /** Why a bind failed, in words: an unsupported address type has no message of its own. */
    static String reason(Exception e) {
        if (e instanceof UnsupportedAddressTypeException) {
            return "this JVM's network stack has no such address family (IPv6 disabled,"
                    + " or -Djava.net.preferIPv4Stack=true)";
        }
        return e.getMessage();
    }

    /**
     * A worker's second listener, one loop on an ephemeral port of the same host, answering every
     * route; its {@code /stats} reports {@code main}, the worker's listener on the shared port. At
     * most 64 connections, so it cannot eat the descriptors left beside the cap.
     */
    static HttpServer statsListener(Dictionary dict, HttpServer main, ServerOptions o, Consumer<Throwable> onFailure)
            throws IOException {
        return HttpServer.builder(new DictionaryHandler(dict, main::stats, o.cachedWords))
                .onFailure(onFailure) // as the main listener's: the worker stops and exits 1
                .host(o.host)
                .port(0)
                .threads(1)
                .maxConnections(64)
                .outputBufferSize(16 * 1024)
                .maxHeldOutput(1 << 20) // not a second quarter of the worker's heap: 64 small answers
                .idleTimeout(o.idleTimeout)
                .headerTimeout(o.headerTimeout)
                .start();
    }

    /**
     * Watches this worker's standard input, a pipe only the launcher writes to: {@code endDrain}
     * runs when the launcher writes {@link #END_DRAIN} (a second stop signal, passed on), and
     * {@code gone} once the launcher is gone (end-of-file: the launcher's end closed, however it
     * ended). A daemon thread blocks on the read.
     */
    static void onLauncherGone(Runnable gone, Runnable endDrain) {
        Thread t = new Thread(
                () -> {
                    byte[] b = new byte[64];
                    try {
                        for (int n; (n = System.in.read(b)) >= 0; ) {
                            for (int i = 0; i < n; i++) {
                                if (b[i] == END_DRAIN) {
                                    endDrain.run();
                                }
                            }
                        }
                    } catch (IOException closed) {
                        // gone as well
                    }
                    gone.run();
                },
                "tickwork-launcher-watch");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
