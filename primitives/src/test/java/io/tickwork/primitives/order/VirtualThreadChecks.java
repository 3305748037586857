package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor's guarantees on virtual threads ({@code Executors.newVirtualThreadPerTaskExecutor()},
 * JDK 21 or later), as a program: {@link VirtualThreadsTest} runs it on a JDK 21+ in a child JVM
 * when the build's own JDK is older, or in place. Prints one line per check and exits with status
 * 1 on the first failure. Compiled with {@code --release 17}, so the executor is looked up at run
 * time.
 */
public final class VirtualThreadChecks {
    private static final long AWAIT_SECONDS = 60;

    private VirtualThreadChecks() {}

    public static void main(String[] args) throws Exception {
        try {
            runAll();
            System.out.println("all virtual-thread checks passed on JDK " + Runtime.version());
        } catch (Throwable e) {
            System.out.println("FAILED on JDK " + Runtime.version() + ": " + e);
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    static void runAll() throws Exception {
        blockingKeysAllRunAtOnce();
        tasksOfAKeyRunInOrderWithoutOverlap();
        noTaskStartsInterrupted();
        afterShutdownNowNothingIsAcceptedAndNothingAcceptedIsLost();
    }

    static ExecutorService virtualThreadPerTask() throws Throwable {
        return (ExecutorService) MethodHandles.publicLookup()
                .findStatic(
                        Executors.class,
                        "newVirtualThreadPerTaskExecutor",
                        MethodType.methodType(ExecutorService.class))
                .invoke();
    }

    private static ExecutorService pool() throws Exception {
        try {
            return virtualThreadPerTask();
        } catch (Exception e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("virtual threads need JDK 21 or later: " + t, t);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** 256 keys whose one task blocks 50 ms, and must meet the other 255 at a barrier. */
    static void blockingKeysAllRunAtOnce() throws Exception {
        ExecutorService pool = pool();
        try (KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool)) {
            int keys = 256;
            CyclicBarrier barrier = new CyclicBarrier(keys);
            AtomicInteger through = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(keys);
            long start = System.nanoTime();
            for (int k = 0; k < keys; k++) {
                keyed.execute(k, () -> {
                    try {
                        Thread.sleep(50); // the blocking work, e.g. a database write
                        barrier.await(AWAIT_SECONDS, TimeUnit.SECONDS);
                        through.incrementAndGet();
                    } catch (Exception e) {
                        // broken or timed out: not through
                    } finally {
                        done.countDown();
                    }
                });
            }
            check(done.await(2 * AWAIT_SECONDS, TimeUnit.SECONDS), "tasks never finished");
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            check(through.get() == keys, through.get() + " of " + keys + " keys reached the barrier together");
            System.out.println("256 keys x one 50 ms blocking task, all at once on virtual threads: " + ms + " ms");
        } finally {
            pool.shutdown();
        }
    }

    static void tasksOfAKeyRunInOrderWithoutOverlap() throws Exception {
        ExecutorService pool = pool();
        try {
            KeyedSerialExecutor<Integer> keyed =
                    KeyedSerialExecutor.builder(pool).fairnessBudget(7).build();
            int keys = 8;
            int perKey = 20_000;
            List<List<Integer>> logs = new ArrayList<>();
            AtomicInteger[] inFlight = new AtomicInteger[keys];
            for (int k = 0; k < keys; k++) {
                logs.add(new ArrayList<>()); // deliberately not thread safe
                inFlight[k] = new AtomicInteger();
            }
            AtomicInteger overlaps = new AtomicInteger();
            for (int i = 0; i < perKey; i++) {
                for (int k = 0; k < keys; k++) {
                    List<Integer> log = logs.get(k);
                    AtomicInteger mine = inFlight[k];
                    int seq = i;
                    keyed.execute(k, () -> {
                        if (mine.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        log.add(seq);
                        mine.decrementAndGet();
                    });
                }
            }
            keyed.close();
            check(overlaps.get() == 0, overlaps.get() + " overlapping runs of a key");
            for (int k = 0; k < keys; k++) {
                List<Integer> log = logs.get(k);
                check(log.size() == perKey, "key " + k + " ran " + log.size() + " of " + perKey);
                for (int i = 0; i < perKey; i++) {
                    check(log.get(i) == i, "key " + k + " position " + i + " holds " + log.get(i));
                }
            }
            System.out.println("8 keys x 20,000 tasks in order, no overlap: " + keyed);
        } finally {
            pool.shutdown();
        }
    }

    static void noTaskStartsInterrupted() throws Exception {
        ExecutorService pool = pool();
        try (KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool)) {
            AtomicInteger startedInterrupted = new AtomicInteger();
            for (int i = 0; i < 400; i++) {
                keyed.execute(i % 8, () -> {
                    if (Thread.currentThread().isInterrupted()) {
                        startedInterrupted.incrementAndGet();
                    }
                    Thread.currentThread().interrupt();
                });
            }
            keyed.close();
            check(startedInterrupted.get() == 0, startedInterrupted.get() + " tasks started interrupted");
            System.out.println("400 self-interrupting tasks, none started interrupted");
        } finally {
            pool.shutdown();
        }
    }

    static void afterShutdownNowNothingIsAcceptedAndNothingAcceptedIsLost() throws Exception {
        ExecutorService pool = pool();
        KeyedSerialExecutor<Integer> keyed = KeyedSerialExecutor.create(pool);
        AtomicInteger ran = new AtomicInteger();
        int accepted = 0;
        for (int i = 0; i < 10_000; i++) {
            keyed.execute(i % 64, ran::incrementAndGet);
            accepted++;
        }
        check(pool.shutdownNow().isEmpty(), "a thread-per-task executor queues nothing");
        int rejected = 0;
        for (int i = 0; i < 100; i++) {
            try {
                keyed.execute(1_000 + i, ran::incrementAndGet);
            } catch (RejectedExecutionException expected) {
                rejected++;
            }
        }
        check(rejected == 100, (100 - rejected) + " new keys accepted after shutdownNow");
        keyed.shutdown();
        check(keyed.awaitTermination(AWAIT_SECONDS, TimeUnit.SECONDS), "not terminated: " + keyed);
        check(ran.get() == accepted, ran.get() + " of " + accepted + " accepted tasks ran");
        System.out.println(
                "shutdownNow: 100 of 100 later executes rejected, " + accepted + " of " + accepted + " accepted ran");
    }
}
