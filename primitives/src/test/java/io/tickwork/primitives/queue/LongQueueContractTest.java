package io.tickwork.primitives.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link LongQueue} contract, checked for every implementation against an {@link ArrayDeque}
 * model: random operations on two queues at once (two {@link LinkedArrayList}s share one chunk
 * pool), every result and the size compared after each operation; a failure names the random seed.
 */
class LongQueueContractTest {

    /** Two empty queues of one implementation for one seed, and the bound of each. */
    static final class Pair {
        final LongQueue a;
        final LongQueue b;
        /** The most elements either queue accepts; {@link Integer#MAX_VALUE} for an unbounded one. */
        final int bound;

        final String where;

        Pair(LongQueue a, LongQueue b, int bound, String where) {
            this.a = a;
            this.b = b;
            this.bound = bound;
            this.where = where;
        }
    }

    static final int SEEDS = 500;

    static Stream<Arguments> implementations() {
        Function<SplittableRandom, Pair> ring = rnd -> {
            int capacity = 1 + rnd.nextInt(17); // includes non-powers of 2
            return new Pair(new RingQueue(capacity), new RingQueue(capacity), capacity, "capacity=" + capacity);
        };
        Function<SplittableRandom, Pair> lists = rnd -> linkedArrayLists(newPool(rnd));
        return Stream.of(Arguments.of("RingQueue", ring), Arguments.of("LinkedArrayList", lists));
    }

    /** A pool of 1..9-element chunks. */
    static LinkedArrayList.ChunkPool newPool(SplittableRandom rnd) {
        return new LinkedArrayList.ChunkPool(1 + rnd.nextInt(9));
    }

    /** Two lists sharing {@code pool}. */
    static Pair linkedArrayLists(LinkedArrayList.ChunkPool pool) {
        return new Pair(
                new LinkedArrayList(pool), new LinkedArrayList(pool), Integer.MAX_VALUE, "chunk=" + pool.chunkSize());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void matchesArrayDequeModel(String name, Function<SplittableRandom, Pair> make) {
        for (long seed = 0; seed < SEEDS; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            Pair p = make.apply(rnd);
            runAgainstModel(rnd, p, "seed=" + seed + " " + p.where);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void emptyQueueThrowsOnEveryRead(String name, Function<SplittableRandom, Pair> make) {
        LongQueue q = make.apply(new SplittableRandom(0)).a;
        assertThrows(NoSuchElementException.class, q::poll);
        assertThrows(NoSuchElementException.class, q::peek);
        assertThrows(NoSuchElementException.class, q::peekLast);
        assertThrows(NoSuchElementException.class, q::removeLast);
        assertEquals(true, q.offer(7));
        assertEquals(7, q.poll());
        assertThrows(NoSuchElementException.class, q::poll);
        assertEquals(true, q.isEmpty());
    }

    /** There is no sentinel: the extreme values, 0 and -1 go in and come out like any other. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void everyLongIsAnElement(String name, Function<SplittableRandom, Pair> make) {
        long[] values = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1};
        for (long seed = 0; seed < 20; seed++) {
            Pair p = make.apply(new SplittableRandom(seed));
            int n = Math.min(values.length, p.bound);
            for (int i = 0; i < n; i++) {
                assertEquals(true, p.a.offer(values[i]), p.where);
            }
            assertEquals(values[n - 1], p.a.peekLast(), p.where);
            for (int i = 0; i < n; i++) {
                assertEquals(values[i], p.a.peek(), p.where);
                assertEquals(values[i], p.a.poll(), p.where);
            }
            assertEquals(true, p.a.isEmpty(), p.where);
        }
    }

    /** Once warm (a list's pool holding its chunks), offers and polls allocate nothing. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void aWarmQueueAllocatesNothing(String name, Function<SplittableRandom, Pair> make) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        LongQueue q = make.apply(new SplittableRandom(3)).a;
        long allocated = Long.MAX_VALUE;
        long sum = 0;
        for (int round = 0; round < 6; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                q.offer(i);
                if (q.size() > 1) {
                    sum += q.poll();
                }
                if ((i & 63) == 0) {
                    sum += q.removeLast();
                }
            }
            if (round >= 3) { // after the JIT's own allocations
                allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
            }
        }
        assertTrue(sum != 0);
        assertTrue(allocated < 256, name + " allocated " + allocated + " bytes in 100,000 warm offers");
    }

    @Test
    void toStringNamesTheSizeAndTheBoundNotTheElements() {
        RingQueue ring = new RingQueue(5);
        ring.offer(42);
        ring.offer(43);
        assertEquals("RingQueue[size=2, capacity=5]", ring.toString());
        LinkedArrayList list = new LinkedArrayList(4);
        list.offer(42);
        assertEquals("LinkedArrayList[size=1, chunkSize=4]", list.toString());
    }

    /**
     * 600 random operations on {@code p.a} and {@code p.b}, interleaved, each checked against a
     * model deque: offers (accepted exactly while below the bound), polls, removeLasts, peeks and
     * clears; size and emptiness after every operation.
     */
    static void runAgainstModel(SplittableRandom rnd, Pair p, String where) {
        ArrayDeque<Long> ma = new ArrayDeque<>();
        ArrayDeque<Long> mb = new ArrayDeque<>();
        for (int op = 0; op < 600; op++) {
            boolean first = rnd.nextBoolean();
            LongQueue q = first ? p.a : p.b;
            ArrayDeque<Long> model = first ? ma : mb;
            int r = rnd.nextInt(100);
            if (r < 48) {
                long v = rnd.nextLong();
                boolean accepted = model.size() < p.bound;
                assertEquals(accepted, q.offer(v), where + " offer at size " + model.size());
                if (accepted) {
                    model.addLast(v);
                }
            } else if (r < 75) {
                if (model.isEmpty()) {
                    assertThrows(NoSuchElementException.class, q::poll, where);
                } else {
                    assertEquals((long) model.pollFirst(), q.poll(), where + " poll");
                }
            } else if (r < 87) {
                if (model.isEmpty()) {
                    assertThrows(NoSuchElementException.class, q::removeLast, where);
                } else {
                    assertEquals((long) model.pollLast(), q.removeLast(), where + " removeLast");
                }
            } else if (r < 97) {
                if (!model.isEmpty()) {
                    assertEquals((long) model.peekFirst(), q.peek(), where + " peek");
                    assertEquals((long) model.peekLast(), q.peekLast(), where + " peekLast");
                } else {
                    assertThrows(NoSuchElementException.class, q::peek, where);
                    assertThrows(NoSuchElementException.class, q::peekLast, where);
                }
            } else {
                q.clear();
                model.clear();
            }
            assertEquals(model.size(), q.size(), where + " size");
            assertEquals(model.isEmpty(), q.isEmpty(), where + " isEmpty");
        }
    }
}
