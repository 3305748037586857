package io.tickwork.jmh.timer;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.agrona.DeadlineTimerWheel;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The subjects of the timer benchmarks, one {@code @Param} sweep: tickwork's four kinds and the
 * peers a user would otherwise pick. All run on a virtual clock with one time unit per tick.
 *
 * <p>Configuration, the same for every wheel where the design allows: 1 unit per tick, 1,024 ticks
 * per wheel (one revolution covers the workloads' 1..1,000-tick deadlines, so no subject pays for
 * far timers). tickwork ring and chunk capacity 512 per slot (a tick holds about 200 timers in W1
 * and 400 in W2). Agrona starts with its default 16 timers per tick and grows. Kafka runs with
 * its own defaults (1 ms ticks, 20 per level, overflow levels as needed), as {@code SystemTimer}
 * does.
 *
 * <p>Netty's {@code HashedWheelTimer} is not a subject: it owns a worker thread that reads
 * {@code System.nanoTime()} and sleeps until the next tick (4.1 has no pluggable clock), so it
 * cannot be driven by a virtual clock; {@code newTimeout}/{@code cancel} on the caller's side only
 * enqueue into MPSC queues the worker drains later, so timing them would measure a queue offer
 * plus a second thread on a 2-core box, not a timer.
 */
public enum Subject {
    RB_TREE,
    WHEEL_LIST,
    WHEEL_RING,
    WHEEL_LINKED_ARRAY,
    AGRONA,
    PRIORITY_QUEUE,
    TREE_MAP,
    KAFKA;

    static final int TICKS_PER_WHEEL = 1024;
    static final int SLOT_CAPACITY = 512;

    TimerAdapter create(Blackhole bh) {
        switch (this) {
            case RB_TREE:
                return new Tickwork(TimerKind.RB_TREE, bh);
            case WHEEL_LIST:
                return new Tickwork(TimerKind.WHEEL_LIST, bh);
            case WHEEL_RING:
                return new Tickwork(TimerKind.WHEEL_RING, bh);
            case WHEEL_LINKED_ARRAY:
                return new Tickwork(TimerKind.WHEEL_LINKED_ARRAY, bh);
            case AGRONA:
                return new Agrona(bh);
            case PRIORITY_QUEUE:
                return new JdkPriorityQueue(bh);
            case TREE_MAP:
                return new JdkTreeMap(bh);
            case KAFKA:
                return new KafkaTimingWheel(bh);
            default:
                throw new AssertionError(this);
        }
    }

    /** The payload every tickwork and JDK timer carries: a reference, as a run loop's task would be. */
    static final Object PAYLOAD = new Object();

    static final class Tickwork implements TimerAdapter {
        private final TimerQueue<Object> queue;
        private final Consumer<Object> sink;

        Tickwork(TimerKind kind, Blackhole bh) {
            this.queue = kind.create(1, TICKS_PER_WHEEL, SLOT_CAPACITY);
            this.sink = bh::consume;
        }

        @Override
        public long schedule(long deadline) {
            return queue.schedule(deadline, PAYLOAD);
        }

        @Override
        public boolean cancel(long handle) {
            return queue.cancel(handle);
        }

        @Override
        public int expire(long now) {
            return queue.expire(now, sink);
        }

        @Override
        public int size() {
            return queue.size();
        }
    }

    static final class Agrona implements TimerAdapter {
        private final DeadlineTimerWheel wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, 1, TICKS_PER_WHEEL);
        private final DeadlineTimerWheel.TimerHandler handler;

        Agrona(Blackhole bh) {
            handler = (unit, now, timerId) -> {
                bh.consume(timerId);
                return true;
            };
        }

        @Override
        public long schedule(long deadline) {
            return wheel.scheduleTimer(deadline);
        }

        @Override
        public boolean cancel(long handle) {
            return wheel.cancelTimer(handle);
        }

        @Override
        public int expire(long now) {
            // poll handles one tick per call; catch up to now as a run loop would
            int n = 0;
            do {
                n += wheel.poll(now, handler, Integer.MAX_VALUE);
            } while (wheel.currentTickTime() <= now);
            return n;
        }

        @Override
        public int size() {
            return (int) wheel.timerCount();
        }
    }

    /** What a JDK-only run loop keeps: a node with deadline, tie-breaking sequence and payload. */
    static final class Node {
        final long deadline;
        final long seq;
        final Object payload;

        Node(long deadline, long seq, Object payload) {
            this.deadline = deadline;
            this.seq = seq;
            this.payload = payload;
        }
    }

    static final Comparator<Node> BY_DEADLINE_THEN_SEQ = (a, b) -> {
        int c = Long.compare(a.deadline, b.deadline);
        return c != 0 ? c : Long.compare(a.seq, b.seq);
    };

    static final class JdkPriorityQueue implements TimerAdapter {
        private final PriorityQueue<Node> queue = new PriorityQueue<>(BY_DEADLINE_THEN_SEQ);
        private final Blackhole bh;
        private long seq;
        private Node last;

        JdkPriorityQueue(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public long schedule(long deadline) {
            Node n = new Node(deadline, ++seq, PAYLOAD);
            queue.add(n);
            last = n;
            return seq;
        }

        @Override
        public boolean cancel(long handle) {
            if (handle != seq) {
                throw new UnsupportedOperationException("only the latest timer can be cancelled");
            }
            return queue.remove(last); // O(n): a linear search, then a sift
        }

        @Override
        public int expire(long now) {
            int n = 0;
            Node head;
            while ((head = queue.peek()) != null && head.deadline <= now) {
                queue.poll();
                bh.consume(head.payload);
                n++;
            }
            return n;
        }

        @Override
        public int size() {
            return queue.size();
        }
    }

    static final class JdkTreeMap implements TimerAdapter {
        private final TreeMap<Node, Node> map = new TreeMap<>(BY_DEADLINE_THEN_SEQ);
        private final Blackhole bh;
        private long seq;
        private Node last;

        JdkTreeMap(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public long schedule(long deadline) {
            Node n = new Node(deadline, ++seq, PAYLOAD);
            map.put(n, n);
            last = n;
            return seq;
        }

        @Override
        public boolean cancel(long handle) {
            if (handle != seq) {
                throw new UnsupportedOperationException("only the latest timer can be cancelled");
            }
            return map.remove(last) != null;
        }

        @Override
        public int expire(long now) {
            int n = 0;
            while (!map.isEmpty() && map.firstKey().deadline <= now) {
                Node head = map.pollFirstEntry().getKey();
                bh.consume(head.payload);
                n++;
            }
            return n;
        }

        @Override
        public int size() {
            return map.size();
        }
    }
}
