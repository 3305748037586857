package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.TimerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Task;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Wake-ups from foreign threads under stress: plain threads ping-pong with tasks through Kilim
 * mailboxes, so nearly every message finds the loop parked or about to park. No timer is pending,
 * so a lost wake-up leaves a loop parked forever and the bounded wait fails.
 *
 * <p>Power check (done by hand, see docs/results/scheduler.md): removing the inbox re-check after
 * {@code parked = 1} (in {@code LoopInbox.announcePark}) makes this test fail. The jcstress test {@code InboxParkHandshake} checks the same handshake
 * interleaving by interleaving, including the memory-ordering break this test cannot provoke.
 */
class CrossThreadWakeupStressTest {

    static final Msg ONE = new Msg(1);

    static final class Echo extends Task<Object> {
        final Mailbox<Msg> in;
        final Mailbox<Msg> out;

        Echo(Mailbox<Msg> in, Mailbox<Msg> out) {
            this.in = in;
            this.out = out;
        }

        @Override
        public void execute() throws Pausable {
            for (; ; ) {
                Msg m = in.get();
                if (m.value < 0) {
                    return;
                }
                out.putnb(new Msg(m.value + 1));
            }
        }
    }

    static final class Counter extends Task<Object> {
        final Mailbox<Msg> in;
        final long expected;
        final AtomicLong sum;
        final CountDownLatch done;

        Counter(Mailbox<Msg> in, long expected, AtomicLong sum, CountDownLatch done) {
            this.in = in;
            this.expected = expected;
            this.sum = sum;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            long local = 0;
            for (long i = 0; i < expected; i++) {
                local += in.get().value;
            }
            sum.addAndGet(local);
            done.countDown();
        }
    }

    @ParameterizedTest(name = "loops={0} idleSpins={1}")
    @CsvSource({"1, 0", "2, 0", "2, 64"})
    @Timeout(300)
    void pingPongWithForeignThreads(int loops, int idleSpins) throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(loops)
                .idleSpins(idleSpins)
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .build();
        int pairs = 4;
        int rounds = 20_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch finished = new CountDownLatch(pairs);
        List<Thread> threads = new ArrayList<>();
        try {
            for (int p = 0; p < pairs; p++) {
                Mailbox<Msg> in = new Mailbox<>();
                Mailbox<Msg> out = new Mailbox<>();
                s.start(new Echo(in, out));
                Thread t = new Thread(
                        () -> {
                            try {
                                for (long i = 0; i < rounds; i++) {
                                    in.putb(new Msg(i));
                                    Msg r = out.getb(TimeUnit.SECONDS.toMillis(40));
                                    if (r == null || r.value != i + 1) {
                                        throw new AssertionError(
                                                "round " + i + ": reply " + (r == null ? null : r.value));
                                    }
                                }
                                in.putb(new Msg(-1));
                                finished.countDown();
                            } catch (Throwable e) {
                                failure.compareAndSet(null, e);
                                finished.countDown(); // reported at once, not after the wait below
                            }
                        },
                        "foreign-" + p);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            // a lost wake-up fails a round's 40 s wait; this bound is only for a slow machine
            boolean ok = finished.await(200, TimeUnit.SECONDS);
            if (failure.get() != null) {
                throw new AssertionError("a foreign thread failed", failure.get());
            }
            assertTrue(ok, "ping-pong stalled: a wake-up was lost (" + finished.getCount() + " pairs stuck)");
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(60, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest(name = "loops={0}")
    @CsvSource({"1", "2"})
    void burstsFromManyThreadsAllArrive(int loops) throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(loops)
                .idleSpins(0)
                .timers(TimerKind.WHEEL_LINKED_ARRAY)
                .build();
        int tasks = 64;
        int producers = 4;
        int perProducerPerTask = 2_000;
        AtomicLong sum = new AtomicLong();
        CountDownLatch done = new CountDownLatch(tasks);
        List<Mailbox<Msg>> boxes = new ArrayList<>();
        try {
            for (int i = 0; i < tasks; i++) {
                Mailbox<Msg> mb = new Mailbox<>();
                boxes.add(mb);
                s.start(new Counter(mb, (long) producers * perProducerPerTask, sum, done));
            }
            CountDownLatch go = new CountDownLatch(1);
            for (int p = 0; p < producers; p++) {
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int k = 0; k < perProducerPerTask; k++) {
                        for (Mailbox<Msg> mb : boxes) {
                            mb.putb(ONE);
                        }
                        if ((k & 63) == 0) {
                            LockSupport.parkNanos(20_000); // let the loops drain and park again
                        }
                    }
                });
                t.setDaemon(true);
                t.start();
            }
            go.countDown();
            assertTrue(done.await(90, TimeUnit.SECONDS), done.getCount() + " tasks never got all messages");
            assertEquals((long) tasks * producers * perProducerPerTask, sum.get());
        } finally {
            s.shutdownNow();
            assertTrue(s.awaitTermination(60, TimeUnit.SECONDS));
        }
    }
}
