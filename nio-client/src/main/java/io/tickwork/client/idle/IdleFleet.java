package io.tickwork.client.idle;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.JsonReader;
import io.tickwork.client.common.OsError;
import io.tickwork.client.common.ReportOnSignal;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The parent of {@code idle --processes N}: starts the N children of a {@link FleetPlan} (each
 * {@code idle --child} in its own JVM), reads their JSON lines, and prints one progress line a
 * second for all of them: connections, failures by kind, the children's RSS, the server's RSS
 * ({@code --server-pid}, summed over its pids), MemAvailable and the kernel's TCP sockets and
 * memory ({@code /proc/net/sockstat}). At the end it prints one report ({@link FleetReport}).
 *
 * <p>Memory guard: every child guards its own ramp with the same floor, and the parent checks
 * MemAvailable every {@value #GUARD_MS} ms as well; when it falls below the floor, or a child's
 * guard trips, the parent tells every child to stop its ramp ({@link IdleChild#STOP_RAMP}), so one
 * low reading stops them all; each holds what it has until {@code --hold} or {@code --duration}
 * ends. The report's {@code stopped_by} says the guard did it.
 *
 * <p>Bounded: the loop waits at most {@value #GUARD_MS} ms a turn and ends when every child has
 * closed its streams, or at {@code --duration} plus {@value #GRACE_S} s (JVM start, the final
 * GCs and report), when the children still running are killed. A shutdown hook (SIGTERM, SIGINT)
 * terminates the children, then kills those still alive after {@value #KILL_WAIT_MS} ms; a child
 * so terminated sends its report before it exits, so the run still ends with the merged report
 * (the caller waits for it, {@link #signalled}), and such a child's exit status (130, 143) is
 * not a failure. The children end by themselves when the parent's pipes close. Costs: per child, a JVM and two
 * reader threads; per second, a line parsed per child and a few /proc reads. Not thread safe:
 * one {@link #run} on one thread; children's lines come through a queue.
 */
final class IdleFleet {
    static final long GUARD_MS = 100;
    static final long GRACE_S = 30;
    /**
     * How long a terminated child may take before it is killed: longer than a child's own wait for
     * its report ({@link ReportOnSignal#WAIT_SECONDS}), so that a child still closing its
     * connections is not killed before its report comes out.
     */
    static final long KILL_WAIT_MS = ReportOnSignal.WAIT_SECONDS * 1_000 + 2_000;
    /**
     * How long a signal's hook waits for the merged report: past {@link #KILL_WAIT_MS}, so the
     * report of a child that took its whole time still gets merged and printed before the JVM
     * exits.
     */
    static final long REPORT_WAIT_SECONDS = KILL_WAIT_MS / 1_000 + 5;
    /** Events handled in one turn at most, so the loop's clock is read between batches. */
    private static final int BATCH = 1_000;

    private final IdleConfig cfg;
    private final FleetPlan plan;
    private final PrintStream out;
    private final PrintStream human;
    private final PrintStream err;
    private final PrintStream progress;
    private final boolean json;
    private final BlockingQueue<ChildProcess.Event> events = new LinkedBlockingQueue<>();
    private final List<ChildProcess> children = new ArrayList<>();
    private final IdleProgress[] latest;
    private final IdleResult[] reports;
    private final int[] ends;
    private final String[] notes;
    private final MemoryGuard guard;

    private String stoppedBy;
    /** A signal ended the run: children that report and then exit by SIGINT or SIGTERM did as told. */
    private volatile boolean signalled;

    private long start;
    private IdleMemory serverAtRamp;
    private int second;
    private int lastConnected;
    private long lastRequests;

    IdleFleet(IdleConfig cfg, FleetPlan plan, PrintStream out, PrintStream err, boolean json, boolean quiet) {
        this(cfg, plan, out, err, json, quiet, SystemMemory::readMemAvailable);
    }

    /** As above, the parent's guard reading MemAvailable (bytes, -1: unknown) from {@code memAvailable}. */
    IdleFleet(
            IdleConfig cfg,
            FleetPlan plan,
            PrintStream out,
            PrintStream err,
            boolean json,
            boolean quiet,
            LongSupplier memAvailable) {
        this.cfg = cfg;
        this.plan = plan;
        this.out = out;
        this.json = json;
        this.human = json ? err : out;
        this.err = err;
        this.progress = quiet ? null : human;
        int n = plan.size();
        this.latest = new IdleProgress[n];
        this.reports = new IdleResult[n];
        this.ends = new int[n];
        this.notes = new String[n];
        this.guard = new MemoryGuard(cfg.minAvailable(), memAvailable);
    }

    /**
     * Notes that a signal ends the run (the shutdown hook terminates the children): any thread,
     * before {@link #run} prints its report.
     */
    void signalled() {
        signalled = true;
    }

    /** Starts the children, follows them to their end, prints the report; the exit status. */
    int run() throws IOException, InterruptedException {
        // first: a signal from here on terminates the children started so far, and no more start
        Thread hook = new Thread(
                () -> {
                    synchronized (children) { // the start loop checks the flag under this lock
                        signalled = true; // before the children can exit by it
                    }
                    stopChildren();
                },
                "idle-fleet-shutdown");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            human.println("idle: stopped before any process started");
            return 1;
        }
        human.printf(
                Locale.ROOT,
                "idle: %d connections to %s in %d processes of up to %d (at most %s each here), from %s, %d/s%n",
                cfg.connections(),
                IdleCommand.targetsText(cfg.targets()),
                plan.size(),
                plan.child(0).connections(),
                plan.perProcess() == Long.MAX_VALUE ? "unknown" : Long.toString(plan.perProcess()),
                IdleCommand.sourcesText(allSources()),
                cfg.step());
        if (cfg.minAvailable() > 0 && !guard.enabled()) {
            human.println("memory guard off: no MemAvailable in /proc/meminfo");
        }
        IdleMemory serverBefore = IdleMemory.measure(cfg, false);
        if (progress != null && !serverBefore.describeServer(null, 0).isEmpty()) {
            progress.println("before: " + serverBefore.describeServer(null, 0));
        }
        start = System.nanoTime();
        boolean followed = false;
        try {
            for (int i = 0; i < plan.size(); i++) {
                synchronized (children) { // the shutdown hook reads the list, and sets the flag under it
                    if (signalled) {
                        break; // a signal came while starting: the hook stops those started
                    }
                    children.add(ChildProcess.start(i, plan.command(i), events));
                }
            }
            follow(serverBefore);
            followed = true; // every child gone or killed
        } finally {
            if (!followed) {
                stopChildren();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        SystemMemory atEnd = SystemMemory.read();
        guard.seen(atEnd.memAvailable());
        List<FleetReport.Child> entries = new ArrayList<>();
        int status = 0;
        long exitBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS); // one wait for all
        for (ChildProcess c : children) {
            int i = c.index();
            Integer exit = c.exitStatus(Math.max(0, TimeUnit.NANOSECONDS.toMillis(exitBy - System.nanoTime())));
            if (exit == null) {
                c.kill(); // closed its output but did not exit
            }
            entries.add(new FleetReport.Child(i, c.pid(), plan.child(i), reports[i], exit, notes[i]));
            boolean asTold = exit != null && (exit == 0 || signalled && (exit == 130 || exit == 143));
            if (reports[i] == null || !asTold) {
                status = 1;
                human.println("process " + (i + 1) + " (pid " + c.pid() + ") "
                        + (reports[i] == null ? "gave no report" : "failed") + ", exit status "
                        + (exit == null ? "unknown" : exit) + (notes[i] == null ? "" : " (" + notes[i] + ")")
                        + "; its last lines: " + c.tail());
            }
        }
        FleetReport report = new FleetReport(
                cfg,
                entries,
                stoppedBy,
                serverBefore,
                serverAtRamp != null ? serverAtRamp : IdleMemory.measure(cfg, false),
                atEnd,
                guard,
                elapsed);
        out.print(json ? report.toJson() + "\n" : report.toText());
        if (report.total().peak() == 0 && report.total().attempts() > 0) {
            err.println("idle: not one of " + report.total().attempts() + " connects succeeded, in any process");
            return 1;
        }
        String noAnswer = IdleCommand.workloadUnanswered(cfg, report.total());
        if (noAnswer != null) {
            err.println(noAnswer);
            return status == 0 ? 1 : status;
        }
        for (IdleResult child : report.childResults()) { // each child's own limit and counts
            String gone = IdleCommand.serverWentAway(child);
            if (gone != null) {
                err.println(gone);
                return status == 0 ? 1 : status;
            }
        }
        return status;
    }

    private List<InetAddress> allSources() {
        List<InetAddress> all = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            all.addAll(plan.child(i).sources());
        }
        return all;
    }

    /** The loop: children's lines, the guard, a line a second, until every child is gone or the bound. */
    private void follow(IdleMemory serverBefore) throws InterruptedException {
        long hardEnd = start + cfg.duration().toNanos() + TimeUnit.SECONDS.toNanos(GRACE_S);
        // a ramp that never ends (connects that keep failing) still gets the server measured
        // while the children hold their connections: a second before they end theirs (they
        // started after this process), not once their reports say they closed them
        long holdEnd = start
                + cfg.duration().toNanos()
                - Math.min(TimeUnit.SECONDS.toNanos(1), cfg.duration().toNanos() / 2);
        long nextTick = start + TimeUnit.SECONDS.toNanos(1);
        long guardNs = TimeUnit.MILLISECONDS.toNanos(GUARD_MS);
        long nextGuard = start;
        int gone = 0;
        while (gone < children.size()) {
            long now = System.nanoTime();
            if (now - hardEnd >= 0) {
                for (ChildProcess c : children) {
                    if (ends[c.index()] < 2) {
                        notes[c.index()] = "still running " + GRACE_S + " s after --duration: killed";
                        c.kill();
                    }
                }
                return;
            }
            if (now - nextGuard >= 0) {
                nextGuard = now + guardNs;
                String low = stoppedBy == null && serverAtRamp == null ? guard.check(now) : null;
                if (low != null) {
                    stopRamps(low);
                }
            }
            if (now - nextTick >= 0) {
                nextTick += TimeUnit.SECONDS.toNanos(1);
                second();
            }
            if (serverAtRamp == null && now - holdEnd >= 0) {
                rampEnded(now, serverBefore);
            }
            long wait = Math.min(Math.min(nextTick, hardEnd), nextGuard) - now;
            if (serverAtRamp == null) {
                wait = Math.min(wait, holdEnd - now);
            }
            ChildProcess.Event e = events.poll(Math.max(1, wait), TimeUnit.NANOSECONDS);
            for (int k = 0; e != null && k < BATCH; k++) {
                if (handle(e)) {
                    gone++;
                }
                e = k + 1 < BATCH ? events.poll() : null;
            }
            if (serverAtRamp == null && rampsEnded()) {
                rampEnded(System.nanoTime(), serverBefore);
            }
        }
    }

    /** One line from or about a child; true when it was the child's last (both streams ended). */
    private boolean handle(ChildProcess.Event e) {
        int i = e.child().index();
        switch (e.kind()) {
            case EOF:
                return ++ends[i] == 2;
            case ERR:
                if (progress != null) {
                    progress.println("process " + (i + 1) + ": " + e.line());
                }
                return false;
            default:
                break;
        }
        Map<String, Object> j;
        try {
            j = JsonReader.parseObject(e.line());
        } catch (IllegalArgumentException x) {
            human.println("process " + (i + 1) + ": " + e.line());
            return false;
        }
        String stopped = null;
        if (IdleProgress.TOOL.equals(j.get("tool"))) {
            latest[i] = IdleProgress.fromJson(j);
            stopped = latest[i].stoppedBy();
        } else {
            try {
                reports[i] = FleetReport.childResult(j);
                stopped = reports[i].stoppedBy();
            } catch (IllegalArgumentException x) {
                human.println("process " + (i + 1) + ": " + e.line());
            }
        }
        if (stoppedBy == null && stopped != null && stopped.startsWith(MemoryGuard.WHY)) {
            stopRamps(stopped); // one child's guard stops every ramp
        }
        return false;
    }

    /** Tells every child to open no more connections and hold what it has. */
    private void stopRamps(String why) {
        stoppedBy = why;
        for (ChildProcess c : children) {
            c.send(IdleChild.STOP_RAMP + why);
        }
        if (progress != null) {
            progress.println(why + ": no more connects in any of the " + children.size() + " processes; holding "
                    + connected() + " connections");
        }
    }

    private boolean rampsEnded() {
        for (ChildProcess c : children) {
            int i = c.index();
            if (reports[i] == null && ends[i] < 2 && (latest[i] == null || !latest[i].rampDone())) {
                return false;
            }
        }
        return true;
    }

    private void rampEnded(long now, IdleMemory serverBefore) {
        serverAtRamp = IdleMemory.measure(cfg, false);
        if (progress != null) {
            progress.printf(
                    Locale.ROOT,
                    rampsEnded()
                            ? "ramp done in %.1fs: %d of %d connected in %d processes%s%n"
                            : "ramp not done at %.1fs, near the end of the hold: %d of %d connected in %d processes%s%n",
                    (now - start) / 1e9,
                    connected(),
                    cfg.connections(),
                    children.size(),
                    stoppedBy == null ? "" : " (stopped by " + stoppedBy + ")");
            String server = serverAtRamp.describeServer(serverBefore, connected());
            if (!server.isEmpty()) {
                progress.println("memory: " + server);
            }
        }
    }

    /**
     * Connections the children hold now: a child that has reported or is gone holds none (it
     * closes its connections before it reports), whatever its last progress line said.
     */
    private int connected() {
        int n = 0;
        for (int i = 0; i < latest.length; i++) {
            n += holding(i) ? latest[i].connected() : 0;
        }
        return n;
    }

    /** Child {@code i} is still running its hold: it has sent progress, no report, and not ended. */
    private boolean holding(int i) {
        return latest[i] != null && reports[i] == null && ends[i] < 2;
    }

    /** The once-a-second work: the machine's memory for the guard's minimum, and the progress line. */
    private void second() {
        second++;
        SystemMemory system = SystemMemory.read();
        guard.seen(system.memAvailable());
        int connected = 0;
        int pending = 0;
        int ramping = 0;
        long rss = 0;
        long requests = 0;
        long closed = 0;
        Map<OsError, Long> failures = new EnumMap<>(OsError.class);
        int reported = 0;
        for (int i = 0; i < latest.length; i++) {
            IdleProgress p = latest[i];
            if (p == null) {
                ramping += ends[i] < 2 ? 1 : 0; // not started yet
                continue;
            }
            reported++;
            connected += holding(i) ? p.connected() : 0;
            pending += holding(i) ? p.pending() : 0;
            ramping += holding(i) && !p.rampDone() ? 1 : 0;
            rss += ends[i] < 2 && p.rssBytes() > 0 ? p.rssBytes() : 0;
            requests += p.requests();
            closed += p.closedByServer();
            p.failures().forEach((k, v) -> failures.merge(k, v, Long::sum));
        }
        if (progress != null && reported == 0) {
            // no child has said anything yet: zeros would read as nothing connected
            progress.printf(
                    Locale.ROOT,
                    "%4ds  target %d  processes %d starting: no report yet%n",
                    second,
                    cfg.connections(),
                    children.size());
        } else if (progress != null) {
            long failed = failures.values().stream().mapToLong(Long::longValue).sum();
            StringBuilder line = new StringBuilder(String.format(
                    Locale.ROOT,
                    "%4ds  target %d  connected %d  pending %d  failed %d%s  closed %d  rate %d/s  processes %d (%d"
                            + " ramping)"
                            + "  clients rss %s",
                    second,
                    cfg.connections(),
                    connected,
                    pending,
                    failed,
                    failures.isEmpty() ? "" : " " + new TreeMap<>(failures),
                    closed,
                    connected - lastConnected,
                    children.size(),
                    ramping,
                    Fmt.bytes(rss)));
            if (!cfg.serverPids().isEmpty()) {
                line.append("  server rss ").append(Fmt.bytes(ProcMemory.rssBytes(cfg.serverPids())));
            }
            line.append("  ").append(system.describe());
            if (cfg.workload()) {
                line.append("  requests ").append(requests).append("  ").append(requests - lastRequests);
                line.append(" req/s");
            }
            progress.println(line);
        }
        lastConnected = connected;
        lastRequests = requests;
    }

    /** SIGTERM to every child still running, then SIGKILL to those alive after {@value #KILL_WAIT_MS} ms. */
    private void stopChildren() {
        List<ChildProcess> all;
        synchronized (children) {
            all = List.copyOf(children);
        }
        for (ChildProcess c : all) {
            c.terminate();
        }
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
        for (ChildProcess c : all) {
            try {
                long left = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime());
                if (c.exitStatus(Math.max(0, left)) == null) {
                    c.kill();
                }
            } catch (InterruptedException e) {
                c.kill();
                Thread.currentThread().interrupt();
            }
        }
    }
}
