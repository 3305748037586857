package io.tickwork.jmh.scheduler;

import io.tickwork.scheduler.TaskSleep;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.PauseReason;
import kilim.Task;

/**
 * The woven Kilim tasks the benchmarks run. No boxed numbers or strings cross a pause: Kilim's
 * weaver (ASM7 API) cannot merge stack frames over the sealed {@code ConstantDesc} hierarchy.
 */
final class Coroutines {
    private Coroutines() {}

    /**
     * A benchmark task that can be pinned to the Kilim thread it first runs on, so that Kilim's
     * {@code AffineScheduler} resumes it there ({@code Task.pinToThread}: while a task holds a pin,
     * Kilim records its thread at every pause and resumes it on that thread). Pinning is what
     * {@link SchedulerSubjects#start} asks for when the benchmark places tasks; the pin is released before
     * the task ends, as Kilim requires.
     */
    abstract static class Placeable extends Task<Object> {
        boolean pin;

        final void pinIfPlaced() {
            if (pin) {
                pinToThread();
            }
        }

        final void unpinIfPlaced() {
            if (pin) {
                unpinFromThread();
            }
        }
    }

    /** The token passed back and forth in ping-pong; one instance per pair, never reallocated. */
    static final class Ball {}

    /** {@code yields} times {@code Task.yield()}, then counts down. */
    static final class Yielder extends Placeable {
        private final int yields;
        private final CountDownLatch done;

        Yielder(int yields, CountDownLatch done) {
            this.yields = yields;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            pinIfPlaced();
            for (int i = 0; i < yields; i++) {
                Task.yield();
            }
            unpinIfPlaced();
            done.countDown();
        }
    }

    /**
     * Counts {@code started} down, yields until {@code go} is set, then records its number in {@code turns} before each of its
     * {@code yields} yields and once more at the end: with several of them on one thread,
     * {@code turns} shows the order the scheduler runs them in (round-robin, or one to completion
     * after another).
     */
    static final class TurnTaker extends Placeable {
        private final int id;
        private final int yields;
        private final int[] turns;
        private final AtomicInteger next;
        private final AtomicBoolean go;
        private final CountDownLatch started;
        private final CountDownLatch done;

        TurnTaker(
                int id,
                int yields,
                int[] turns,
                AtomicInteger next,
                AtomicBoolean go,
                CountDownLatch started,
                CountDownLatch done) {
            this.id = id;
            this.yields = yields;
            this.turns = turns;
            this.next = next;
            this.go = go;
            this.started = started;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            started.countDown();
            while (!go.get()) {
                Task.yield();
            }
            for (int i = 0; i < yields; i++) {
                turns[next.getAndIncrement()] = id;
                Task.yield();
            }
            turns[next.getAndIncrement()] = id;
            done.countDown();
        }
    }

    /** Serves first: puts the ball into {@code out}, waits for it in {@code in}, {@code rounds} times. */
    static final class Pinger extends Placeable {
        private final Mailbox<Ball> in;
        private final Mailbox<Ball> out;
        private final int rounds;
        private final CountDownLatch done;

        Pinger(Mailbox<Ball> in, Mailbox<Ball> out, int rounds, CountDownLatch done) {
            this.in = in;
            this.out = out;
            this.rounds = rounds;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            pinIfPlaced();
            Ball ball = new Ball();
            for (int i = 0; i < rounds; i++) {
                out.put(ball);
                ball = in.get();
            }
            unpinIfPlaced();
            done.countDown();
        }
    }

    /** Returns every ball it receives, {@code rounds} times. */
    static final class Ponger extends Placeable {
        private final Mailbox<Ball> in;
        private final Mailbox<Ball> out;
        private final int rounds;
        private final CountDownLatch done;

        Ponger(Mailbox<Ball> in, Mailbox<Ball> out, int rounds, CountDownLatch done) {
            this.in = in;
            this.out = out;
            this.rounds = rounds;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            pinIfPlaced();
            for (int i = 0; i < rounds; i++) {
                out.put(in.get());
            }
            unpinIfPlaced();
            done.countDown();
        }
    }

    /**
     * A pair of {@link TurnPlayer}s: whose move it is (0 or 1), how many times the turn was passed
     * (written only by the player holding the turn, so the volatile {@code turn} orders it), and
     * the two players.
     */
    static final class Turn {
        volatile int turn;
        int passes;
        TurnPlayer a;
        TurnPlayer b;
    }

    /**
     * One side of the leanest hand-off Kilim has, the shape of virtual threads' park/unpark
     * ping-pong: waits until {@link Turn#turn} is its own ({@code Task.pause} with itself as the
     * reason), passes the turn and resumes the other side, {@code rounds} times. The reason stays
     * valid while the turn is the other side's: Kilim checks it again after the pause, so a
     * {@code resume} that arrives before the task has paused is not lost.
     */
    static final class TurnPlayer extends Placeable implements PauseReason {
        private final Turn pair;
        private final int me;
        private final int rounds;
        private final CountDownLatch done;

        TurnPlayer(Turn pair, int me, int rounds, CountDownLatch done) {
            this.pair = pair;
            this.me = me;
            this.rounds = rounds;
            this.done = done;
        }

        @Override
        @SuppressWarnings("rawtypes") // PauseReason's signature
        public boolean isValid(Task task) {
            return pair.turn != me;
        }

        @Override
        public void execute() throws Pausable {
            pinIfPlaced();
            Turn p = pair;
            TurnPlayer other = me == 0 ? p.b : p.a;
            for (int i = 0; i < rounds; i++) {
                while (p.turn != me) {
                    Task.pause(this);
                }
                p.passes++;
                p.turn = 1 - me;
                other.resume();
            }
            unpinIfPlaced();
            done.countDown();
        }
    }

    /** {@code sleeps} times Kilim's {@code Task.sleep(millis)}, then counts down. */
    static final class Sleeper extends Placeable {
        private final int sleeps;
        private final long millis;
        private final CountDownLatch done;

        Sleeper(int sleeps, long millis, CountDownLatch done) {
            this.sleeps = sleeps;
            this.millis = millis;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            pinIfPlaced();
            for (int i = 0; i < sleeps; i++) {
                Task.sleep(millis);
            }
            unpinIfPlaced();
            done.countDown();
        }
    }

    /** {@code sleeps} times tickwork's {@code TaskSleep.sleep(millis)} (no mailbox), then counts down. */
    static final class LeanSleeper extends Placeable {
        private final int sleeps;
        private final long millis;
        private final CountDownLatch done;

        LeanSleeper(int sleeps, long millis, CountDownLatch done) {
            this.sleeps = sleeps;
            this.millis = millis;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            pinIfPlaced();
            for (int i = 0; i < sleeps; i++) {
                TaskSleep.sleep(millis);
            }
            unpinIfPlaced();
            done.countDown();
        }
    }
}
