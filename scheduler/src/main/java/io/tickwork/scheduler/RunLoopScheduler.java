package io.tickwork.scheduler;

import static io.tickwork.scheduler.LoopOwner.TERMINATED;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import kilim.Fiber;
import kilim.Scheduler;
import kilim.Task;
import kilim.timerservice.Timer;

/**
 * A Kilim {@link Scheduler} with one run loop per thread and a pluggable {@link TimerQueue} per
 * loop.
 *
 * <pre>{@code
 * RunLoopScheduler scheduler = RunLoopScheduler.builder() // a loop per core by default
 *         .timers(TimerKind.WHEEL_LIST) // the default: one millisecond queue per loop, on Kilim's clock
 *         .build();
 * scheduler.start(new Ticker());  // a kilim.Task, woven (see the package comment); I/O stays on your threads
 * // ...
 * scheduler.idledown();           // runs what is runnable, waits for pending timers, then ends the loops;
 *                                 // a task paused on a mailbox is left there (see "Shutdown" below)
 * }</pre>
 *
 * <p><b>What it does.</b> Each of {@code threads} loops owns a FIFO run queue, an MPSC inbox and a
 * timer queue. A task has one home loop at a time: it is assigned when first
 * scheduled (by default in blocks of tasks started one after another, see {@link Spread}; or the
 * caller's loop, or an explicit index via
 * {@link #start(Task, int)}) and every resumption, from any thread, goes to the home loop. A task started
 * with an explicit index never leaves it, nor does one pinned through Kilim's
 * {@code preferredResumeThread} while it stays pinned.
 * Any other task moves to the loop whose task first woke it from another loop, and later to one
 * whose tasks woke it 2, then 4, 8, up to 64 times in a row (each move doubles what the next one
 * needs), when that loop is home to at most an eighth more unfinished
 * tasks than its home, and the task holds nothing on its home (no queued timer, not asleep in
 * {@link TaskSleep}): two tasks that pass messages end up on one loop and run back to back, as
 * Kilim's {@code ForkJoinScheduler} and Go's scheduler keep a woken task with its waker; a task
 * that wakes many others stops attracting them once its loop is the busier; and a task woken in
 * turn from several loops moves a few times, then at most once per 64 wakes from one of them
 * (wakes from its own loop are not seen, so without the doubling it would move every second
 * wake, an inbox hand-over a move); pin it ({@link #start(Task, int)}) to keep it in one place. Caveat: a pair can stay on two loops when the balance holds one
 * side and the other is never seen woken from another loop (it finds each answer already there,
 * or the answer lands as its slice ends and Kilim lets it resume itself); each loop then runs
 * one side. The home loop decides the move when the task reaches its inbox, so a
 * move costs one more inbox hand-over.
 * Resumptions on the loop's own thread (yield, a mailbox message from a task on the same loop, a
 * timer) are a plain array store; from another thread they go through the inbox and unpark the loop
 * if it sleeps. Kilim's {@code Timer}s ({@code Task.sleep}, {@code Mailbox.get(timeout)},
 * {@code put(msg, timeout)}) go into the home loop's timer queue; one that was answered by a message
 * first is removed from the queue when the task's slice ends.
 *
 * <p><b>Guarantees.</b> Fair round-robin within a loop (a yielding task runs again only after every
 * task that was runnable before it), between pauses: there is no preemption and no stealing, so a
 * task runs until it pauses, and the other tasks of its loop (due timers and new starts included)
 * wait for that whole slice however idle the other loops are; a computation longer than a few
 * milliseconds belongs on a thread pool, the task waiting for its result in a mailbox; a task whose timer is due runs first, once per turn; a task
 * resumed by a task running on its loop (a message) runs right after that task's slice, at most 16
 * such hand-offs in a row, so each task run from the queue or from a due timer brings at most 17
 * slices ahead of the tasks queued behind it. A woken
 * task is never lost: it runs, or after termination it is reported through {@link Scheduler#log} (a
 * {@code RejectedExecutionException}) and counted in {@link #rejectedCount()}. A timer never
 * fires before its deadline: Kilim deadlines are {@code currentTimeMillis()} values, and a timer
 * fires once that clock has passed its deadline, so a sleep's timer fires at least {@code d} ms
 * after {@code sleep(d)} (but see the Kilim caveats for {@code Task.sleep} woken early);
 * it fires typically within 1-2 ms after ({@link TaskSleep} takes its deadline from the loop's next
 * clock read, at most 16 task slices after the call, so a long slice in between adds its length).
 * Caveat: that clock is the wall clock, so a step of it (an NTP step, not a slew; a VM resumed)
 * moves every timer armed before it: a step forward by F fires the timers due within F at once,
 * up to F early (Kilim's own elapsed-time checks are fooled alike); a step back by S makes them
 * S late, on every kind, and a wheel's timers armed after the step too, since a wheel ignores
 * time going backwards ({@code RB_TREE} keeps those on time). A task that throws is handed to the
 * {@link TaskFailureHandler} (default: print its stack), once, and the loop keeps running; one
 * that throws while pinned (a held {@code kilim.ReentrantLock}) stays unfinished, as Kilim's
 * {@code Task.run} leaves it. An idle loop parks until its next deadline; it never spins beyond
 * {@code idleSpins} checks of its inbox.
 *
 * <p><b>Shutdown.</b> {@link #shutdown()} is orderly: loops keep running every task that is or
 * becomes runnable (including by pending timers) and end when all of them are simultaneously idle
 * with no timer pending; tasks still paused on a mailbox then are abandoned (no thread will run
 * them, and a {@code joinb()} on one never returns). A wake-up from a thread that is not a loop's,
 * racing with that last moment, either runs (the loops then do not end until they are idle again)
 * or is reported and counted as rejected (below) without running; a {@link #start} racing with it
 * either returns and its task runs, or throws and its task never runs. {@link #shutdownNow()} ends each loop
 * before its next slice (a slice running then ends at the task's next pause; a loop that checked
 * for the stop just before may start one more, see there); tasks still queued,
 * and tasks waiting on a timer of theirs (a sleep, a timed wait), are not run and are listed by
 * {@link #droppedTasks()} (after an orderly termination it changes nothing); tasks paused on a
 * mailbox with no timeout, or on a timer whose deadline overflows a {@code long}, are abandoned.
 * {@link #idledown()} and {@link #awaitTermination} refuse to wait on a loop thread (a task), which
 * could never end while it waits.
 *
 * <p><b>Failure of a loop.</b> If a loop's own machinery throws (an {@code Error} outside any task,
 * {@code OutOfMemoryError} say), the error is printed and the scheduler stops as by
 * {@link #shutdownNow()}: no task is left waiting for a dead loop, what was queued or waiting on
 * its timers is listed by {@link #droppedTasks()} (unless the timer queue is what failed), and
 * later wake-ups are rejected.
 *
 * <p><b>Interrupts.</b> A loop thread's interrupt status belongs to no task: the loop clears it
 * before every slice and before it parks, so a task never starts with one left by another task or
 * sent to the loop thread from outside, and a stray interrupt cannot make an idle loop spin. An
 * interrupt that arrives while a slice runs is seen by that slice's task (as by any code on that
 * thread: an interruptible channel it uses is closed). Interrupting a loop thread does not stop
 * it; use {@link #shutdown()} or {@link #shutdownNow()}.
 *
 * <p><b>Cost.</b> A resumption on the home loop allocates nothing in the scheduler (Kilim itself may
 * allocate for the paused stack) and writes nothing shared. A resumption from another thread adds
 * the inbox offer and, when the target loop sleeps, one CAS and an unpark. Starting a task, moving
 * it and its end each update a shared counter (the next loop of {@link Spread}, the loops'
 * resident counts). A task that Kilim's {@code Task.resumeOnScheduler} moves to another
 * {@code RunLoopScheduler} leaves this one's counts; one moved to a scheduler of another kind stays
 * counted here (the counts only guide placement and {@link #toString()}).
 *
 * <p><b>Placement matters with more than one loop.</b> Tasks allocated one after another by one
 * thread sit next to each other in memory; spread one by one over the loops
 * ({@link Spread#ROUND_ROBIN}), neighbours run on different cores and every switch writes cache
 * lines the other loop also writes (the Task objects themselves, G1's card table), which can cost
 * a large share of the throughput. The default,
 * {@link Spread#BLOCKS}, keeps blocks of up to {@value #BLOCK} such neighbours on one loop. Creating tasks
 * on the loop that will run them ({@link Spread#CALLER_LOOP}), or starting them in contiguous
 * blocks with {@link #start(Task, int)}, keeps them all together.
 *
 * <p><b>On JDK 17 to 19, the collector matters more than the scheduler.</b> Every Kilim pause
 * allocates a fiber {@code State} and stores it into the task, so with many long-lived tasks each
 * pause dirties a card of the old generation, which G1 must refine (scan it and record its
 * references) before or during its next pause. A loop that runs many tasks in turn comes back to a
 * card only after G1 before JDK 20 has refined it concurrently, so the same cards are dirtied and
 * refined over and over, and refinement takes most of the CPU, the loop's own included. JDK 20
 * and later leave dirty cards for the next pause as far as the pause-time goal allows; on JDK 17
 * to 19, {@code -XX:-G1UseAdaptiveConcRefinement -XX:G1ConcRefinementGreenZone=256} does the same,
 * at the cost of longer young pauses (the flags are obsolete from JDK 20 on, and JDK 25 refuses to
 * start with them); ParallelGC avoids the cost too. Measure a loop with many tasks with one of
 * these before concluding from JDK 17's G1 defaults.
 *
 * <p><b>Kilim caveats</b> (not specific to this scheduler): {@code Mailbox.get(timeout)} decides
 * "timed out" from whole {@code currentTimeMillis()} steps whenever it wakes, so a message arriving
 * near the deadline can make it return null up to 1 ms early, leaving the message in the mailbox,
 * and so can a stray resumption (Kilim's {@code Task.resume()} does not check why the task paused),
 * before the message has come. Kilim's {@code Task.sleep(d)} is such a {@code get(d)} on a mailbox
 * of its own, so a stray resumption in its last millisecond ends it up to 1 ms early
 * ({@code Task.sleep(1)} may return within microseconds); use {@link TaskSleep} to sleep without a mailbox: the loop holds its
 * stray resumption until its timer fired. Kilim's NIO
 * {@code RegistrationTask} is not supported.
 *
 * <p>Usage: {@code RunLoopScheduler.builder().threads(n).timers("wheel-linked-array").build()}, then
 * {@code scheduler.start(task)} (or {@code task.setScheduler(scheduler).start()}); {@link #close()}
 * (as {@link #idledown()}) ends it once its tasks have, so it fits a try-with-resources. Tasks must be
 * woven, and the weaver refuses some code that {@code javac} accepts (records, sealed types, some
 * frame merges over {@code String}): see the package comment.
 *
 * <p><b>Thread safety:</b> all public methods may be called from any thread.
 */
public final class RunLoopScheduler extends Scheduler implements AutoCloseable {

    /** How a task that was never scheduled before picks its loop. */
    public enum Spread {
        /**
         * The default: tasks started one after another go to one loop in blocks, and the blocks
         * go round-robin over the loops. The blocks double, turn by turn, from one task per loop up
         * to {@value RunLoopScheduler#BLOCK}: the first turn gives each loop one task, the next
         * two, then 4, 8, and so on. So a handful of long-lived tasks still gets a loop each, and a
         * burst of thousands, allocated next to each other, runs mostly in blocks of
         * {@value RunLoopScheduler#BLOCK} neighbours on one loop (see "Placement" in the class
         * comment). Cost: the loops' shares are uneven by up to a block. Of the tasks started, a
         * loop is given at most twice the fewest any loop is given, plus one, while the blocks
         * grow, and at most {@value RunLoopScheduler#BLOCK} more than the fewest after (tasks
         * that later move to their wakers' loops change where they are, not this count).
         */
        BLOCKS,
        /** One task per loop in turn, whichever thread starts the task. */
        ROUND_ROBIN,
        /** The loop of the thread that starts the task when it is one of ours, else as {@link #BLOCKS}. */
        CALLER_LOOP
    }

    /**
     * The largest block of {@link Spread#BLOCKS}, in tasks: 64 tasks of a few hundred bytes each are
     * tens of G1 cards (512 B), so neighbours share a card or a cache line with another loop's tasks
     * only at the blocks' edges. Chosen by measurement (16, 64, 256: {@code docs/results/scheduler.md}).
     */
    static final int BLOCK = 64;

    private final RunLoop[] loops;
    /** Numbers the default thread name prefix of schedulers built without a name. */
    private static final AtomicLong UNNAMED = new AtomicLong();

    private final String threadName;
    private final Spread spread;
    private final TaskFailureHandler failureHandler;
    /** Tasks placed by the {@link Spread} so far: a long, so that it never wraps and restarts the blocks. */
    private final AtomicLong nextLoop = new AtomicLong();

    private final CountDownLatch ended;
    private final LongAdder failures = new LongAdder();
    private final LongAdder rejections = new LongAdder();
    private final ConcurrentLinkedQueue<Task<?>> dropped = new ConcurrentLinkedQueue<>();
    /**
     * What the loops see of this scheduler, its lifecycle word included; also the identity that
     * marks its loops and timers.
     */
    private final Owner owner = new Owner();

    private RunLoopScheduler(Builder b) {
        List<TimerQueue<Timer>> queues = new ArrayList<>(b.threads);
        for (int i = 0; i < b.threads; i++) {
            TimerQueue<Timer> timers = Objects.requireNonNull(b.timers.get(), "timer supplier returned null");
            for (int j = 0; j < i; j++) {
                if (queues.get(j) == timers) { // one thread per queue: two loops would share it
                    throw new IllegalArgumentException("the timer supplier returned the same queue for loops " + j
                            + " and " + i + "; it must return a new queue per call");
                }
            }
            queues.add(timers);
        }
        // numbered once the build can no longer fail for a bad option, so the numbers have no gaps
        this.threadName = b.name != null ? b.name : "tickwork-" + UNNAMED.incrementAndGet() + "-loop";
        this.spread = b.spread;
        this.failureHandler = b.failureHandler;
        this.loops = new RunLoop[b.threads];
        this.ended = new CountDownLatch(b.threads);
        for (int i = 0; i < loops.length; i++) {
            loops[i] = new RunLoop(
                    owner, i, b.threads > 1, queues.get(i), b.batch, b.idleSpins, threadName + "-" + i, b.daemon);
        }
        for (int i = 0; i < loops.length; i++) {
            try {
                loops[i].thread().start();
            } catch (Throwable startFailed) { // out of threads, say: stop those already running
                shutdownNow();
                for (int j = i; j < loops.length; j++) {
                    owner.loopEnded(); // never started: nothing to wait for
                }
                throw startFailed;
            }
        }
    }

    /** A builder; every option has a default ({@code build()} alone gives a loop per core). */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------------------ starting tasks

    /**
     * Sets this as the task's scheduler and starts it on the loop chosen by the {@link Spread}.
     * After {@link #shutdownNow()}, or once the scheduler has terminated, the start is refused;
     * after {@link #shutdown()} the task runs, as every task that becomes runnable while a loop
     * still runs. Either way the call tells: it returns once the task is sure to run (or, after a
     * later {@code shutdownNow()}, to be listed by {@link #droppedTasks()}), and throws
     * {@code RejectedExecutionException} for a task that never runs, also when the start races
     * with the loops' end (see "Shutdown" in the class comment); such a task is neither logged nor
     * counted in {@link #rejectedCount()}. On an idle scheduler, start before {@code shutdown()},
     * not after. The calling thread holds the task's monitor during a start (as Kilim's
     * {@code setScheduler} takes it), so two starts of one task run one after the other. A task
     * started by a plain {@code Task.start()} runs on
     * the task's scheduler, which is Kilim's default unless set ({@code setScheduler}, or
     * {@code Scheduler.setDefaultScheduler(this)} for every new task), so a child a task starts
     * that way runs outside this scheduler and its shutdown.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws java.util.concurrent.RejectedExecutionException after {@link #shutdownNow()}, or if
     *     the scheduler has terminated (or its orderly shutdown found every loop idle), also when
     *     that came as the task was handed over: the task never runs
     * @throws IllegalStateException if the task was already started on a {@code RunLoopScheduler},
     *     has run to its end on any scheduler, or belongs to another scheduler (started there, or
     *     given it by {@code setScheduler}); nothing about the task changes then
     * @throws IllegalArgumentException if the task's class was not woven by Kilim (run, it would
     *     end the JVM with status 0, as Kilim does with an unwoven task); so does a task that
     *     Kilim's own {@code Task.start()} hands to this scheduler
     */
    public <T extends Task<?>> T start(T task) {
        Objects.requireNonNull(task, "task");
        return startOn(task, -1);
    }

    /**
     * Sets this as the task's scheduler and starts it on loop {@code loopIndex}, pinned there.
     * After termination, as {@link #start(Task)}.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws IllegalArgumentException if there is no such loop, or the task's class was not woven
     * @throws IllegalStateException as {@link #start(Task)}
     * @throws java.util.concurrent.RejectedExecutionException after {@link #shutdownNow()}, if the
     *     scheduler has terminated, or if its end came as the task was handed over: as
     *     {@link #start(Task)}
     */
    public <T extends Task<?>> T start(T task, int loopIndex) {
        Objects.requireNonNull(task, "task");
        if (loopIndex < 0 || loopIndex >= loops.length) {
            throw new IllegalArgumentException("loopIndex must be in [0, " + loops.length + "): " + loopIndex);
        }
        return startOn(task, loopIndex);
    }

    /** Both starts: on loop {@code loopIndex}, pinned, or where the {@link Spread} says if it is -1. */
    private <T extends Task<?>> T startOn(T task, int loopIndex) {
        synchronized (task) { // as Kilim's setScheduler: two starts of one task run one after the other
            refuseStarted(task);
            refuseIfEnding(task);
            if (!WOVEN.get(task.getClass())) {
                throw notWoven(task.getClass());
            }
            task.setScheduler(this);
            // the home is given where the resume schedules the task, so only if this resume is
            // the one that starts it: Kilim's own start() of the task, racing, may win instead
            Pin pin = new Pin(task, loopIndex);
            PIN.set(pin);
            try {
                resumeOrRefuse(task);
            } catch (Throwable handOverFailed) { // out of memory, say: the start throws, so the task must not run
                if (pin.timer != null) {
                    pin.timer.settleStart(false);
                }
                throw handOverFailed;
            } finally {
                PIN.remove();
            }
            if (pin.timer != null) { // this start adopted the task: its fate is this call's to tell
                settleStart(task, pin.timer);
            }
        }
        return task;
    }

    /**
     * The task is in its home loop's inbox (or queued or running there): returns if it runs, throws
     * if the scheduler's end came first. Moving the shutdown's epoch on makes a termination scan
     * that began before the task reached the inbox fail, so a scan that succeeds later sees it; a
     * loop that took the task to run meanwhile, or an exit that dropped or refused it, decided
     * first ({@link LoopTimer#settleStart}).
     */
    private void settleStart(Task<?> task, LoopTimer timer) {
        if (timer.settleStart(owner.admitStarted())) {
            return;
        }
        throw new java.util.concurrent.RejectedExecutionException("task " + task.id() + " not started: " + this
                + (owner.state() == LoopOwner.STOPPED
                        ? " was stopped (shutdownNow(), or a loop failed)"
                        : " terminated as it was handed over"));
    }

    /**
     * A start in progress on this thread: the loop its task's first schedule takes (-1: the
     * {@link Spread}'s). A class, not a record: this module's classes go through Kilim's weaver.
     */
    private static final class Pin {
        final Task<?> task;
        final int loop;
        /** The timer adopt() gave the task, if this start's resume was the one that adopted it. */
        LoopTimer timer;

        Pin(Task<?> task, int loop) {
            this.task = task;
            this.loop = loop;
        }
    }

    private static final ThreadLocal<Pin> PIN = new ThreadLocal<>();

    /**
     * A Kilim task runs once, on one scheduler: one started here before, run to its end anywhere,
     * or started on (or given by {@code setScheduler}) another scheduler is refused, before anything
     * changes. Kilim's own {@code resume} of a task that another scheduler is running returns
     * quietly without running it, and would have switched its scheduler to this one.
     */
    private void refuseStarted(Task<?> task) {
        if (task.timer instanceof LoopTimer) {
            throw new IllegalStateException("task " + task.id() + " was already started on a RunLoopScheduler");
        }
        if (task.isDone()) {
            throw new IllegalStateException(
                    "task " + task.id() + " has already run to its end: a Kilim task runs once");
        }
        Scheduler other = task.getScheduler();
        if (other != null && other != this) {
            throw new IllegalStateException("task " + task.id() + " belongs to another scheduler (" + other
                    + "), by setScheduler or a start there: a task runs on one scheduler");
        }
    }

    /** Resumes a task the checks above let through; Kilim refuses only a task running or done. */
    private static void resumeOrRefuse(Task<?> task) {
        if (!task.resume()) {
            throw new IllegalStateException("task " + task.id() + " is running already: a Kilim task starts once");
        }
    }

    // ------------------------------------------------------------------------------ kilim.Scheduler

    /**
     * Makes a task runnable. The hot case, a task resuming itself at the end of its own slice
     * ({@code Task.yield()}), goes straight to the tail of the running loop's queue without touching
     * anything but the loop. Kilim's NIO {@code RegistrationTask} is not supported here. Kilim calls
     * it; use {@link #start(Task)} to start a task.
     *
     * @throws NullPointerException if {@code t} is null
     */
    @Override
    public void schedule(Task t) {
        Objects.requireNonNull(t, "task");
        RunLoop loop = RunLoop.onCurrentThread();
        if (loop != null && loop.requeueIfRunning(t, owner)) {
            return;
        }
        schedule(-1, t);
    }

    /**
     * Makes a task runnable on its home loop; a task seen for the first time is given a home
     * ({@code index} if {@code >= 0}, which pins it there; any negative index means none, and the
     * {@link Spread} picks). Later, the home wins over {@code index}; only an unpinned task's home
     * moves (see the class comment).
     *
     * @throws NullPointerException if {@code t} is null
     * @throws IllegalArgumentException if {@code t} has no home yet and {@code index >= numThreads()}
     */
    @Override
    public void schedule(int index, Task t) {
        Objects.requireNonNull(t, "task");
        int home = homeIndex(t.timer);
        if (home >= 0) {
            // Kilim passes an index only for a pinned task (pinToThread, a kilim.ReentrantLock
            // held): such a resumption must not move it
            loops[home].submit(t, index < 0);
        } else {
            Pin pin = PIN.get(); // once per task: its first schedule
            boolean starting = pin != null && pin.task == t;
            if (starting) {
                index = pin.loop;
            }
            if (index >= loops.length) {
                throw new IllegalArgumentException("loop index must be in [0, " + loops.length + "): " + index);
            }
            RunLoop loop = adopt(t, index);
            if (starting) {
                pin.timer = (LoopTimer) t.timer;
                pin.timer.startInProgress(); // before any loop can see the task
            }
            loop.submit(t, false, starting);
        }
    }

    /**
     * Kilim's call to arm a task's timer ({@code Task.sleep}, a mailbox wait with a timeout): it
     * goes to the timer queue of the task's home loop, or, for a timer of a task this scheduler
     * never ran, of the calling loop (loop 0 from outside the loops). After the loops have ended
     * it is dropped, as the task it would wake is. Not for direct use.
     *
     * @throws NullPointerException if {@code timer} is null
     */
    @Override
    public void scheduleTimer(Timer timer) {
        Objects.requireNonNull(timer, "timer");
        int home = homeIndex(timer);
        RunLoop loop;
        if (home >= 0) {
            loop = loops[home];
        } else {
            RunLoop mine = currentLoop();
            loop = mine != null ? mine : loops[0];
        }
        loop.submitTimer(timer);
    }

    /**
     * Whether every loop is idle now: nothing runnable, nothing in its inbox (timers may wait); true
     * once terminated, where nothing runs again (a loop that has ended is neither parked nor waiting).
     */
    @Override
    public boolean isEmptyish() {
        if (isTerminated()) {
            return true;
        }
        for (RunLoop loop : loops) {
            if (!loop.isIdle()) {
                return false;
            }
        }
        return true;
    }

    /** The number of loops (threads), fixed at build. */
    @Override
    public int numThreads() {
        return loops.length;
    }

    /**
     * Orderly {@link #shutdown()}, then waits until every loop has ended; returns early, with the
     * thread's interrupt status set, if interrupted.
     *
     * @throws IllegalStateException if called from one of this scheduler's loops (a task): that
     *     loop would wait for itself to end (the shutdown has started all the same)
     */
    @Override
    public void idledown() {
        shutdown();
        refuseWaitOnLoop("idledown()");
        try {
            ended.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {@link #idledown()}, for try-with-resources: an orderly shutdown, then waits until every
     * loop has ended; returns early, with the thread's interrupt status set, if interrupted.
     *
     * @throws IllegalStateException if called from one of this scheduler's loops (a task)
     */
    @Override
    public void close() {
        idledown();
    }

    private void refuseWaitOnLoop(String call) {
        if (currentLoop() != null) {
            throw new IllegalStateException(call + " called from a task on "
                    + Thread.currentThread().getName() + ": the loop would wait for itself to end");
        }
    }

    /** Starts an orderly shutdown (see the class comment); returns at once. */
    @Override
    public void shutdown() {
        super.shutdown();
        if (owner.shutdown()) {
            wakeAll(); // idle loops re-check and run the termination scan
        }
    }

    /**
     * Ends each loop before its next slice (a slice running now ends at its task's next pause).
     * A loop checks for the stop before each slice, without a handshake with this call: a loop
     * that checked just before this call may still start that one slice after it returns, so at
     * most one task per loop starts a slice after the stop; that task ran, and is not listed as
     * dropped. What was queued or waiting on a loop's timers is listed by {@link #droppedTasks()}
     * once the loops have ended. From its return on, {@link #start} throws
     * {@code RejectedExecutionException}, and a task woken from outside the loops is rejected
     * (logged, counted in {@link #rejectedCount()}). A task waiting on a timer whose deadline is past what a
     * {@code long} counts (a sleep or wait of {@code Long.MAX_VALUE} ms) has no timer queued and is
     * abandoned, as a task paused on a mailbox with no timeout.
     */
    public void shutdownNow() {
        super.shutdown();
        owner.stop();
        wakeAll();
    }

    /**
     * Waits for every loop thread to end; {@code true} if they did within the timeout.
     *
     * @throws IllegalStateException if called from one of this scheduler's loops (a task), which
     *     could never end while it waits
     * @throws NullPointerException if {@code unit} is null
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        refuseWaitOnLoop("awaitTermination");
        return ended.await(timeout, unit);
    }

    /** Every loop thread has ended. */
    public boolean isTerminated() {
        return ended.getCount() == 0;
    }

    /** Tasks that ended by throwing. */
    public long failedCount() {
        return failures.sum();
    }

    /**
     * Wake-ups refused because the scheduler had terminated or was stopped by
     * {@link #shutdownNow()} (a task woken from outside the loops after it, or started by Kilim's
     * own {@code Task.start()}; a {@link #start} throws instead, uncounted), each also reported
     * through {@code log}. A task that {@link #shutdownNow()} dropped while it waited on its timer and
     * that is woken later is counted here too: the wake-up is refused, and the task stays in
     * {@link #droppedTasks()}. A task being handed from one loop to another as {@link #shutdownNow()}
     * stops them (moving home to the loop that woke it, or passed on from a loop that is no longer
     * its home) may be counted here, once, instead of listed as dropped. Kilim resumes a task once per
     * pause, so a task already woken (one dropped from a run queue, or whose late wake-up was
     * refused) is not counted again.
     */
    public long rejectedCount() {
        return rejections.sum();
    }

    /**
     * Tasks that {@link #shutdownNow()} (or a loop's failure) kept from running: runnable ones and
     * ones waiting on a timer, each once. A copy, empty unless a stop dropped tasks.
     */
    public List<Task<?>> droppedTasks() {
        return new ArrayList<>(dropped);
    }

    /** Routes Kilim's report of a failed task to the {@link TaskFailureHandler}. */
    @Override
    protected void log(Object src, Object obj) {
        if (src instanceof Task && obj instanceof Throwable) {
            owner.taskFailed((Task<?>) src, (Throwable) obj);
        } else {
            super.log(src, obj);
        }
    }

    /**
     * One line: the thread name prefix, the loops, the spread and the state; with more than one
     * loop, also the tasks homed on each loop and not finished (started or moved there; a count
     * the loops keep anyway to balance moves; a task dropped by {@link #shutdownNow()}, or a start
     * or wake-up refused once the loops ended, leaves it), e.g. {@code RunLoopScheduler[tickwork-1-loop,
     * threads=2, spread=BLOCKS, running, unfinished tasks per loop [120, 118]]}. Each count is read
     * once, as other threads change it.
     */
    @Override
    public String toString() {
        String name = switch (owner.state()) {
            case LoopOwner.RUNNING -> "running";
            case LoopOwner.SHUTDOWN -> "shutting down";
            case LoopOwner.TERMINATED -> isTerminated() ? "terminated" : "ending";
            default -> isTerminated() ? "stopped (shutdownNow), terminated" : "stopped (shutdownNow)";
        };
        StringBuilder sb = new StringBuilder("RunLoopScheduler[")
                .append(threadName)
                .append(", threads=")
                .append(loops.length)
                .append(", spread=")
                .append(spread)
                .append(", ")
                .append(name);
        if (loops.length > 1) { // kept for moves only: a single loop has no count
            sb.append(", unfinished tasks per loop [");
            for (int i = 0; i < loops.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(loops[i].residents());
            }
            sb.append(']');
        }
        return sb.append(']').toString();
    }

    // ------------------------------------------------------------------------------ internals

    /** Loop {@code index}, for tests. */
    RunLoop loop(int index) {
        return loops[index];
    }

    /** The loop threads, for tests. */
    List<Thread> loopThreads() {
        List<Thread> ts = new ArrayList<>();
        for (RunLoop loop : loops) {
            ts.add(loop.thread());
        }
        return ts;
    }

    private RunLoop currentLoop() {
        RunLoop loop = RunLoop.onCurrentThread();
        return loop != null && loop.ownedBy(owner) ? loop : null;
    }

    /** The index of the home loop of {@code timer}'s task if this scheduler adopted it, else -1. */
    private int homeIndex(Timer timer) {
        return timer instanceof LoopTimer ? ((LoopTimer) timer).homeIn(owner) : -1;
    }

    /** Gives a task its home loop; the LoopTimer carries the affinity and the timer handle. */
    private RunLoop adopt(Task<?> task, int index) {
        if (!WOVEN.get(task.getClass())) {
            throw notWoven(task.getClass());
        }
        RunLoop loop;
        if (loops.length == 1) {
            loop = loops[0];
        } else if (index >= 0) {
            loop = loops[index];
        } else {
            RunLoop mine = spread == Spread.CALLER_LOOP ? currentLoop() : null;
            loop = mine != null ? mine : loops[spreadIndex(nextLoop.getAndIncrement())];
        }
        if (task.timer instanceof LoopTimer other) {
            other.leftScheduler(); // another RunLoopScheduler's task, moved here by resumeOnScheduler
        }
        task.timer = new LoopTimer(task, owner, loop.index(), index >= 0);
        if (loops.length > 1) {
            loop.addResidents(1); // a single loop has nowhere to move tasks: no count to keep
        }
        return loop;
    }

    /**
     * Whether Kilim's weaver has seen a task class: run unwoven, a task reaches Kilim's
     * {@code Task.execute(Fiber)}, which prints a banner and ends the JVM with status 0, so a test
     * run "passes" with nothing run; and an unwoven subclass of a woven task runs the woven
     * superclass's {@code execute} instead of its own. Looked up once per class.
     */
    private static final ClassValue<Boolean> WOVEN = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return executeIsWoven(type, Task.class);
        }
    };

    /**
     * Whether the {@code execute} Kilim would run for {@code type} is woven: the most derived class
     * below {@code root} that declares {@code execute()} or {@code execute(Fiber)} declares the
     * woven form, {@code execute(Fiber)}.
     */
    static boolean executeIsWoven(Class<?> type, Class<?> root) {
        for (Class<?> c = type; c != null && c != root; c = c.getSuperclass()) {
            boolean plain = false;
            for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                if (m.getName().equals("execute")) {
                    if (m.getParameterCount() == 1 && m.getParameterTypes()[0] == Fiber.class) {
                        return true;
                    }
                    plain |= m.getParameterCount() == 0;
                }
            }
            if (plain) {
                return false; // its own execute() was not woven: Kilim would run a superclass's
            }
        }
        return false;
    }

    /**
     * Refuses a start that could not run: after {@link #shutdownNow()}, or once the loops have
     * ended or an orderly shutdown has found them all idle (they end at their next turn). A start
     * racing with that moment learns of it once its task is handed over ({@link #settleStart}).
     */
    private void refuseIfEnding(Task<?> task) {
        int state = owner.state();
        if (state == LoopOwner.STOPPED) {
            throw new java.util.concurrent.RejectedExecutionException(
                    "task " + task.id() + " not started: " + this + " was stopped (shutdownNow(), or a loop failed)");
        }
        if (state == LoopOwner.TERMINATED || isTerminated()) {
            throw new java.util.concurrent.RejectedExecutionException(
                    "task " + task.id() + " not started: " + this + " has terminated");
        }
    }

    private static IllegalArgumentException notWoven(Class<?> type) {
        return new IllegalArgumentException("task class " + type.getName()
                + " was not woven by Kilim, or its execute() was not (weave it: the kilim Maven plugin's weave goal,"
                + " or kilim.tools.Weaver -d <out> <classes>, with tickwork-scheduler on the weaver's classpath):"
                + " Kilim would end the JVM, or run a superclass's execute(), when it ran");
    }

    /** The loop of the {@code k}-th task placed by the {@link Spread} (k >= 0). */
    private int spreadIndex(long k) {
        int n = loops.length;
        return spread == Spread.ROUND_ROBIN ? (int) (k % n) : blockIndex(k, n);
    }

    /**
     * The loop of the {@code k}-th task of {@link Spread#BLOCKS} over {@code n} loops. Turn
     * {@code r < log2(BLOCK)} gives each loop a block of {@code 2^r} tasks and starts at task
     * {@code n * (2^r - 1)}; from task {@code n * (BLOCK - 1)} on, every block is {@link #BLOCK}.
     */
    static int blockIndex(long k, int n) {
        long growing = (long) n * (BLOCK - 1);
        if (k >= growing) {
            return (int) (((k - growing) / BLOCK) % n);
        }
        int r = 63 - Long.numberOfLeadingZeros(k / n + 1);
        long inTurn = k - (long) n * ((1L << r) - 1);
        return (int) (inTurn >>> r);
    }

    private void wakeAll() {
        for (RunLoop loop : loops) {
            LockSupport.unpark(loop.thread());
        }
    }

    /**
     * The {@link LoopOwner} of this scheduler's loops: a private object, so that the calls the loops
     * make stay out of the scheduler's public API. Thread safe, as the interface requires.
     */
    private final class Owner extends SchedulerState implements LoopOwner, SchedulerState.QuiescenceMarks {
        /**
         * Every loop quiescent with an empty inbox, twice, with no loop woken in between, means no
         * task can become runnable from inside the scheduler any more.
         */
        @Override
        public boolean tryTerminate() {
            if (terminateIfQuiescent(this)) {
                wakeAll();
            }
            return state() >= TERMINATED;
        }

        @Override
        public int loops() {
            return loops.length;
        }

        @Override
        public long mark(int i) {
            return loops[i].quiescentMark();
        }

        @Override
        public void loopEnded() {
            ended.countDown();
        }

        @Override
        public void loopDied(String loopName, Throwable fatal) {
            try {
                reportInternal("run loop " + loopName + " died; the scheduler stops as by shutdownNow()", fatal);
            } finally {
                shutdownNow();
            }
        }

        @Override
        public void taskFailed(Task<?> task, Throwable failure) {
            RunLoop loop = RunLoop.onCurrentThread();
            if (loop != null) {
                loop.failureReported = true;
            }
            failures.increment();
            try {
                failureHandler.failed(task, failure);
            } catch (Throwable handlerFailure) {
                reportInternal("TaskFailureHandler threw", handlerFailure);
            }
        }

        @Override
        public void rejected(Task<?> task, Throwable why) {
            rejections.increment();
            RunLoopScheduler.super.log(task, why);
        }

        @Override
        public void dropped(Task<?> task) {
            dropped.add(task);
        }

        @Override
        public void reportInternal(String what, Throwable t) {
            synchronized (System.err) {
                System.err.println("tickwork: " + what);
                t.printStackTrace();
            }
        }

        @Override
        public void scheduleTimer(Timer timer) {
            RunLoopScheduler.this.scheduleTimer(timer);
        }

        @Override
        public void forward(Object taskOrTimer, int loop) {
            loops[loop].submitRemote(taskOrTimer);
        }

        @Override
        public void move(Task<?> task, int from, int loop) {
            loops[from].addResidents(-1);
            loops[loop].addResidents(1);
            loops[loop].submitRemote(task);
        }

        @Override
        public int residents(int loop) {
            return loops[loop].residents();
        }

        @Override
        public void residentLeft(int loop) {
            if (loops.length > 1) { // a single loop keeps no count
                loops[loop].addResidents(-1);
            }
        }
    }

    /**
     * Configures a {@link RunLoopScheduler}. Not thread safe. Every option has a default; a setter
     * given null throws {@link NullPointerException} naming the parameter.
     */
    public static final class Builder {
        /**
         * The most loops a scheduler has: a loop is a thread meant for a core of its own, and tasks
         * that block belong on a pool, not on more loops.
         */
        public static final int MAX_THREADS = 4096;

        private int threads = Runtime.getRuntime().availableProcessors();
        private Supplier<? extends TimerQueue<Timer>> timers = millisecondQueues(TimerKind.WHEEL_LIST);
        /** Null until {@link #name} is called: {@link #build} then numbers the default prefix. */
        private String name;

        private Spread spread = Spread.BLOCKS;
        private TaskFailureHandler failureHandler = TaskFailureHandler.PRINT_STACK;
        private int batch = 256;
        private int idleSpins = 64;
        private boolean daemon = true;

        private Builder() {}

        /**
         * Number of loops (threads); default {@code Runtime.getRuntime().availableProcessors()}, one
         * per core, as Kilim's own schedulers default. A loop with nothing to run parks after
         * {@link #idleSpins} spins, so idle loops cost no CPU.
         *
         * @throws IllegalArgumentException if {@code threads < 1} or {@code threads >}
         *     {@value #MAX_THREADS}
         */
        public Builder threads(int threads) {
            if (threads < 1 || threads > MAX_THREADS) {
                throw new IllegalArgumentException("threads must be 1.." + MAX_THREADS + ": " + threads);
            }
            this.threads = threads;
            return this;
        }

        /**
         * One timer queue per loop, from this supplier (called once per loop, on the thread that
         * builds the scheduler; a new queue each call: one returned twice to a build makes it fail,
         * and one shared with another scheduler, which cannot be detected, corrupts both). The queue's clock
         * must be the loops': Kilim's deadlines are {@code System.currentTimeMillis()} values, so
         * build it as {@code TimerQueue.builder(TimeUnit.MILLISECONDS, System.currentTimeMillis())};
         * a queue on another clock (nanoseconds, say) fires its timers at the wrong time, or never.
         * {@link #timers(TimerKind)} builds the right one. Default: {@code timers(TimerKind.WHEEL_LIST)}.
         */
        public Builder timers(Supplier<? extends TimerQueue<Timer>> timers) {
            this.timers = Objects.requireNonNull(timers, "timers");
            return this;
        }

        /**
         * One timer queue of this kind per loop on the loops' clock ({@code currentTimeMillis()},
         * which Kilim's deadlines use), counted from the loop's creation: 1 ms ticks over 4 s, so
         * sleeps and timeouts up to 4 s stay on the wheel and longer ones wait in its overflow heap.
         */
        public Builder timers(TimerKind kind) {
            return timers(millisecondQueues(Objects.requireNonNull(kind, "kind")));
        }

        private static Supplier<TimerQueue<Timer>> millisecondQueues(TimerKind kind) {
            return () -> TimerQueue.builder(TimeUnit.MILLISECONDS, System.currentTimeMillis())
                    .kind(kind)
                    .tick(Duration.ofMillis(1))
                    .span(Duration.ofSeconds(4))
                    .<Timer>build();
        }

        /**
         * {@link #timers(TimerKind)} by name, as {@link TimerKind#parse} reads it ("wheel-ring").
         *
         * @throws IllegalArgumentException if no kind has that name
         * @throws NullPointerException if {@code kindName} is null
         */
        public Builder timers(String kindName) {
            return timers(TimerKind.parse(Objects.requireNonNull(kindName, "kindName")));
        }

        /**
         * Thread name prefix; loops are named {@code name-0 .. name-(n-1)}. By default each scheduler
         * built without one gets {@code tickwork-N-loop}, N counting schedulers from 1 in this JVM,
         * so the loops of two schedulers never share a name in a thread dump. A name given here is
         * used as is, even if another scheduler has it.
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** How {@link #start(Task)} picks a loop for a task; default {@link Spread#BLOCKS}. */
        public Builder spread(Spread spread) {
            this.spread = Objects.requireNonNull(spread, "spread");
            return this;
        }

        /** What a task's throwable goes to; default {@link TaskFailureHandler#PRINT_STACK}. */
        public Builder onTaskFailure(TaskFailureHandler handler) {
            this.failureHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Tasks run between two looks at the inbox and the clock; default 256.
         *
         * @throws IllegalArgumentException if {@code batch < 1}
         */
        public Builder batch(int batch) {
            if (batch < 1) {
                throw new IllegalArgumentException("batch must be >= 1: " + batch);
            }
            this.batch = batch;
            return this;
        }

        /**
         * Inbox checks (each with a spin-wait hint) before an idle loop parks; default 64, 0 parks
         * at once.
         *
         * @throws IllegalArgumentException if {@code idleSpins < 0}
         */
        public Builder idleSpins(int idleSpins) {
            if (idleSpins < 0) {
                throw new IllegalArgumentException("idleSpins must be >= 0: " + idleSpins);
            }
            this.idleSpins = idleSpins;
            return this;
        }

        /** Whether loop threads are daemons (default true, like Kilim's own schedulers). */
        public Builder daemon(boolean daemon) {
            this.daemon = daemon;
            return this;
        }

        /**
         * Starts the loops. What the timer supplier throws is rethrown, before any loop exists; a
         * loop thread that cannot start (out of threads) stops those already started, and what
         * {@code Thread.start} threw is rethrown.
         *
         * @throws IllegalArgumentException if the timer supplier returned one queue for two loops
         * @throws NullPointerException if it returned null
         */
        public RunLoopScheduler build() {
            return new RunLoopScheduler(this);
        }
    }
}
