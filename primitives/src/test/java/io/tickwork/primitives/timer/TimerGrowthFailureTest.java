package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A queue whose growth fails (an {@link OutOfMemoryError} in practice) stays consistent: a
 * {@code schedule} that throws leaves it as it was, and later calls keep the contract. The failure
 * is made by taking away, through reflection, the array a growth copies (the copy throws a
 * {@link NullPointerException}), then putting it back.
 */
class TimerGrowthFailureTest {

    private static Object swap(Object owner, Class<?> declaring, String field, Object value)
            throws ReflectiveOperationException {
        Field f = declaring.getDeclaredField(field);
        f.setAccessible(true);
        Object old = f.get(owner);
        f.set(owner, value);
        return old;
    }

    private static List<Integer> expireAll(TimerQueue<Integer> q) {
        List<Integer> fired = new ArrayList<>();
        q.expire(Long.MAX_VALUE, fired::add);
        return fired;
    }

    private static int intField(Object owner, Class<?> declaring, String field) throws ReflectiveOperationException {
        Field f = declaring.getDeclaredField(field);
        f.setAccessible(true);
        return f.getInt(owner);
    }

    private static int length(Object owner, Class<?> declaring, String field) throws ReflectiveOperationException {
        Field f = declaring.getDeclaredField(field);
        f.setAccessible(true);
        return java.lang.reflect.Array.getLength(f.get(owner));
    }

    /** No free node and none left before the node arrays must grow. */
    private static boolean nodesFull(TimerQueue<?> q) throws ReflectiveOperationException {
        return intField(q, RbTreeTimer.class, "freeNodeTop") == 0
                && intField(q, RbTreeTimer.class, "nodeHighWater") == length(q, RbTreeTimer.class, "freeNodes");
    }

    @Test
    void aTreeWhoseNodesCannotGrowSchedulesNothing() throws ReflectiveOperationException {
        TimerQueue<Integer> q = TimerKind.RB_TREE.create();
        int n = 0;
        while (!nodesFull(q)) {
            n++;
            q.schedule(n, n); // distinct deadlines, a node each
        }
        Object nodes = swap(q, RbTreeTimer.class, "freeNodes", null);
        assertThrows(NullPointerException.class, () -> q.schedule(1_000, 1_000));
        swap(q, RbTreeTimer.class, "freeNodes", nodes);
        assertEquals(n, q.size(), "the failed schedule counts no timer");
        List<Integer> fired = new ArrayList<>();
        q.expire(n, fired::add); // a real now: the queue goes on after it
        assertEquals(n, fired.size());
        assertEquals(0, q.size());
        assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline());
        q.schedule(n + 5, 5); // grows now
        assertEquals(List.of(5), expireAll(q));
    }

    @Test
    void aTreeRescheduleThatCannotGrowKeepsTheTimerWhereItWas() throws ReflectiveOperationException {
        TimerQueue<Integer> q = TimerKind.RB_TREE.create();
        long a = q.schedule(1, -1);
        q.schedule(1, -2); // shares a's node: moving a needs a node of its own
        int n = 2;
        for (int d = 2; !nodesFull(q); d++) {
            q.schedule(d, d);
            n++;
        }
        Object nodes = swap(q, RbTreeTimer.class, "freeNodes", null);
        assertThrows(NullPointerException.class, () -> q.reschedule(a, 1_000_000));
        swap(q, RbTreeTimer.class, "freeNodes", nodes);
        assertEquals(n, q.size());
        List<Integer> fired = expireAll(q);
        assertEquals(n, fired.size());
        assertEquals(List.of(-1, -2), fired.subList(0, 2), "a kept its deadline and its place before the other");
        assertEquals(0, q.size());
    }

    @Test
    void aTreeMakesRoomOnlyForTheDeferredTimersStillPending() throws ReflectiveOperationException {
        TimerQueue<Integer> q = TimerKind.RB_TREE.create();
        q.schedule(1, 1);
        int before = length(q, RbTreeTimer.class, "freeNodes");
        q.expire(1, fired -> {
            for (int i = 0; i < 10_000; i++) { // each deferred (due now), then cancelled
                assertTrue(q.cancel(q.schedule(0, i)));
            }
        });
        assertEquals(before, length(q, RbTreeTimer.class, "freeNodes"), "the node arrays grew");
        assertEquals(0, q.size());
    }

    /**
     * A consumer that schedules due timers and cancels them in a loop leaves a deferred entry per
     * call; the list is kept to the timers still deferred, not the calls, and those still fire,
     * once each and in order, when expire returns.
     */
    @ParameterizedTest
    @EnumSource(TimerKind.class)
    void theDeferredListHoldsTheTimersStillDeferredNotTheCallsMade(TimerKind kind) throws ReflectiveOperationException {
        TimerQueue<Integer> q = kind.create(1, 64, 4);
        Class<?> owner = kind == TimerKind.RB_TREE ? RbTreeTimer.class : WheelTimer.class;
        String list = kind == TimerKind.RB_TREE ? "deferred" : "deferredIds";
        q.schedule(1, 0);
        List<Integer> fired = new ArrayList<>();
        q.expire(1, first -> {
            fired.add(first);
            for (int i = 0; i < 100_000; i++) {
                if (i % 20_000 == 0) {
                    q.schedule(0, -1 - i / 20_000); // five kept
                }
                long a = q.schedule(0, i); // due now: deferred
                long b = q.schedule(30, i); // not due: in its slot (or the tree)
                assertTrue(q.reschedule(b, 0)); // moved into the deferred list while a is in it
                assertTrue(q.cancel(a));
                assertTrue(q.cancel(b));
            }
        });
        assertTrue(length(q, owner, list) <= 64, "the deferred list grew to " + length(q, owner, list));
        assertEquals(5, q.size());
        q.expire(2, fired::add);
        assertEquals(List.of(0, -1, -2, -3, -4, -5), fired);
        assertEquals(0, q.size());
    }

    @Test
    void aHeapWhoseCopyFailsHalfWayStaysUsable() throws ReflectiveOperationException {
        TickHeap h = new TickHeap();
        for (int i = 0; i < 16; i++) {
            h.push(i, 100 - i);
        }
        Object ids = swap(h, TickHeap.class, "ids", null);
        assertThrows(NullPointerException.class, () -> h.push(16, 0));
        swap(h, TickHeap.class, "ids", ids);
        h.push(16, 0);
        assertEquals(17, h.size());
        assertEquals(16, h.pop());
        for (int i = 15; i >= 0; i--) {
            assertEquals(i, h.pop());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = TimerKind.class,
            names = {"RB_TREE"},
            mode = EnumSource.Mode.EXCLUDE)
    void aWheelWhosePoolCannotGrowSchedulesNothing(TimerKind kind) throws ReflectiveOperationException {
        TimerQueue<Integer> q = kind.create(1, 64, 4);
        int n = 0;
        while (intField(q, WheelTimer.class, "highWater") < length(q, WheelTimer.class, "where")) {
            q.schedule(1 + n % 50, n); // fills the pool: no id freed yet
            n++;
        }
        Object due = swap(q, WheelTimer.class, "due", null);
        assertThrows(NullPointerException.class, () -> q.schedule(3, -3));
        swap(q, WheelTimer.class, "due", due);
        assertEquals(n, q.size(), "the failed schedule counts no timer");
        q.schedule(7, -7); // the pool grows now
        List<Integer> fired = expireAll(q);
        assertEquals(n + 1, fired.size());
        assertTrue(fired.contains(-7));
        assertEquals(0, q.size());
    }

    @ParameterizedTest
    @EnumSource(
            value = TimerKind.class,
            names = {"RB_TREE"},
            mode = EnumSource.Mode.EXCLUDE)
    void aWheelWhoseOverflowHeapCannotGrowSchedulesNothing(TimerKind kind) throws ReflectiveOperationException {
        TimerQueue<Integer> q = kind.create(1, 64, 4);
        Object heap = swap(q, WheelTimer.class, "heap", null);
        swap(q, WheelTimer.class, "heap", heap); // read it
        int n = 0;
        while (n == 0 || ((TickHeap) heap).size() < length(heap, TickHeap.class, "ticks")) {
            q.schedule(1_000 + n, n); // far deadlines (beyond 64 ticks) go to the heap
            n++;
        }
        Object ids = swap(heap, TickHeap.class, "ids", null);
        assertThrows(NullPointerException.class, () -> q.schedule(5_000, -1));
        swap(heap, TickHeap.class, "ids", ids);
        assertEquals(n, q.size(), "the failed schedule counts no timer");
        List<Integer> fired = expireAll(q);
        assertEquals(n, fired.size());
        for (int i = 0; i < n; i++) {
            assertEquals(i, fired.get(i));
        }
        assertEquals(0, q.size());
        assertEquals(TimerQueue.NO_DEADLINE, q.nextDeadline());
    }

    /**
     * The tree's node array at its largest: every node a full queue can use (its timers, the
     * sentinel and the spare) fits, without the doubling past 2^27 nodes that asks for 2^31 longs
     * (a {@code NegativeArraySizeException}).
     */
    @Test
    void theTreesNodeArrayGrowsToWhatAFullQueueUsesWithoutOverflow() {
        assertEquals(16, RbTreeTimer.grownNodeCapacity(8, 9));
        assertEquals(8, RbTreeTimer.grownNodeCapacity(8, 8));
        int fullQueue = RbTreeTimer.MAX_IDS + 2; // every id a timer of its own deadline, the sentinel, the spare
        int cap = RbTreeTimer.grownNodeCapacity(RbTreeTimer.MAX_IDS, fullQueue);
        assertTrue(cap >= fullQueue, "capacity " + cap);
        assertTrue((long) cap * 8 <= Integer.MAX_VALUE - 8, "node array of " + (long) cap * 8 + " longs");
        assertEquals(cap, RbTreeTimer.grownNodeCapacity(1 << 20, fullQueue));
    }

    /**
     * A slot whose list refuses an entry (it already counts {@link Integer#MAX_VALUE}, made here by
     * setting its size) refuses the schedule with an {@link IllegalStateException} and keeps the
     * queue as it was: the timer is not counted, and every other one still fires.
     */
    @ParameterizedTest
    @EnumSource(
            value = TimerKind.class,
            names = {"WHEEL_RING", "WHEEL_LINKED_ARRAY"})
    void aSlotThatCannotTakeAnEntryRefusesTheScheduleAndStaysConsistent(TimerKind kind)
            throws ReflectiveOperationException {
        TimerQueue<Integer> q = kind.create(1, 1024, 2);
        q.expire(0, t -> {});
        for (int i = 1; i <= 3; i++) {
            q.schedule(5, i); // two in the slot's ring (or first chunk), the third beyond
        }
        Field slots = kind == TimerKind.WHEEL_RING
                ? WheelRingTimer.class.getDeclaredField("spills")
                : WheelLinkedArrayTimer.class.getDeclaredField("slots");
        slots.setAccessible(true);
        Object list = ((Object[]) slots.get(q))[5];
        Object size = swap(list, io.tickwork.primitives.queue.LinkedArrayList.class, "size", Integer.MAX_VALUE);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.schedule(5, 99));
        assertTrue(e.getMessage().contains("slot 5 holds Integer.MAX_VALUE entries"), e.getMessage());
        swap(list, io.tickwork.primitives.queue.LinkedArrayList.class, "size", size);
        assertEquals(3, q.size());
        q.schedule(6, 4);
        List<Integer> fired = expireAll(q);
        fired.sort(null);
        assertEquals(List.of(1, 2, 3, 4), fired);
        assertEquals(0, q.size());
    }
}
