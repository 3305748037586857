package io.tickwork.jmh.timer;

import io.tickwork.primitives.timer.LongTimerQueue;
import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The subjects of the timer benchmarks, one {@code @Param} sweep: tickwork's four kinds (two of
 * them also with {@code long} payloads) and the peers a user would otherwise pick. All run on a
 * virtual clock with one time unit per tick. Ours and Agrona hand out {@code long} handles
 * ({@link LongHandleTimers}); the JDK structures and Kafka hand out their timer objects
 * ({@link ObjectHandleTimers}), which the workloads keep as their users would.
 *
 * <p>Configuration, the same for every wheel where the design allows: 1 unit per tick, 1,024 ticks
 * per wheel (one revolution covers the workloads' deadlines, at most 1,000 ticks ahead, so no
 * subject pays for far timers). A re-arm is tickwork's {@code reschedule} (same handle) and the
 * peers' cancel plus schedule ({@link ObjectHandleTimers#reschedule}; Agrona's
 * {@link LongHandleTimers#reschedule}). tickwork ring and chunk capacity 512 per slot (a tick holds
 * about 200 timers in W1 and 400 in W2 at the default density; a denser tick spills to the slot's
 * overflow, as it would for a user who sized the wheel once). Agrona starts with its default 16 timers per tick and
 * grows. Kafka runs twice: with its own defaults (1 ms ticks, 20 per level, overflow levels as
 * needed), as {@code SystemTimer} does, and with 1,024 ticks per level.
 *
 * <p>Netty's {@code HashedWheelTimer} is not a subject: it owns a worker thread that reads
 * {@code System.nanoTime()} and sleeps until the next tick (4.1 has no pluggable clock), so it
 * cannot be driven by a virtual clock; {@code newTimeout}/{@code cancel} on the caller's side only
 * enqueue into MPSC queues the worker drains later, so timing them would measure a queue offer
 * plus a second thread on a 2-core box, not a timer.
 */
public enum TimerSubject {
    RB_TREE,
    WHEEL_LIST,
    WHEEL_RING,
    WHEEL_LINKED_ARRAY,
    /**
     * {@link #WHEEL_LIST} built with {@code long} payloads ({@code TimerKind.createLong}), as an
     * owner that keys its timers by number uses it: the like-for-like subject beside
     * {@link #AGRONA}, whose wheel also stores no reference per timer and hands out a number.
     */
    WHEEL_LIST_LONG,
    /** {@link #WHEEL_LINKED_ARRAY} with {@code long} payloads; see {@link #WHEEL_LIST_LONG}. */
    WHEEL_LINKED_ARRAY_LONG,
    AGRONA,
    /**
     * Agrona's wheel with a {@code Long2ObjectHashMap} from timer id to payload on every timer, as
     * its users keep payloads: the same work per timer as the other subjects, which hand out a
     * stored reference. {@link #AGRONA} looks nothing up for the shared {@link #PAYLOAD}, so it is
     * the faster of the two, and the peer the verdicts compare with.
     */
    AGRONA_MAPPED,
    /**
     * {@link #AGRONA} polled as Agrona's documentation has a duty cycle poll it: until the wheel's
     * current tick is the one {@code now} is in, leaving that tick's spoke for the next call. Each
     * spoke is then scanned once, where {@link #AGRONA} scans the previous one again to fire the
     * current tick's timers at once; the price is up to one tick of lateness, which the contract
     * test allows this subject (and no other).
     */
    AGRONA_POLL_ONCE,
    /**
     * {@code PriorityQueue} of nodes, cancelled with its own {@code remove(Object)}: O(n), a linear
     * search of the heap. The worst case of the JDK peers, kept as the structure a user reaches for
     * first; a heap that keeps each node's index (as {@code ScheduledThreadPoolExecutor} does) or
     * cancels lazily does better.
     */
    PRIORITY_QUEUE,
    TREE_MAP,
    /**
     * A {@code TreeMap} from deadline to a bucket of the timers due then, what a JDK-only run loop
     * on a coarse clock keeps: O(log d) over d distinct deadlines, as {@link #RB_TREE} is, and
     * O(1) cancel through the bucket's links; it boxes the deadline, as such code does.
     */
    TREE_MAP_BUCKETED,
    /** Kafka's wheel as {@code SystemTimer} builds it: 1 unit per tick, 20 ticks per level. */
    KAFKA,
    /**
     * Kafka's wheel with 1,024 ticks per level, as the other wheels have: every deadline of the
     * workloads on the finest level (but those of the sparse one, up to 10^6 ticks ahead), none
     * moved down from a coarser one.
     */
    KAFKA_1024;

    static final int TICKS_PER_WHEEL = 1024;
    static final int SLOT_CAPACITY = 512;

    /** This subject's adapter, handing expired payloads to the benchmark's blackhole. */
    TimerAdapter create(Blackhole bh) {
        return create(bh::consume);
    }

    /** This subject's adapter, handing expired payloads to {@code sink}. */
    TimerAdapter create(Consumer<Object> sink) {
        switch (this) {
            case RB_TREE:
                return new Tickwork(TimerKind.RB_TREE, sink);
            case WHEEL_LIST:
                return new Tickwork(TimerKind.WHEEL_LIST, sink);
            case WHEEL_RING:
                return new Tickwork(TimerKind.WHEEL_RING, sink);
            case WHEEL_LINKED_ARRAY:
                return new Tickwork(TimerKind.WHEEL_LINKED_ARRAY, sink);
            case WHEEL_LIST_LONG:
                return new TickworkLong(TimerKind.WHEEL_LIST, sink);
            case WHEEL_LINKED_ARRAY_LONG:
                return new TickworkLong(TimerKind.WHEEL_LINKED_ARRAY, sink);
            case AGRONA:
                return new Agrona(sink, false);
            case AGRONA_MAPPED:
                return new Agrona(sink, true);
            case AGRONA_POLL_ONCE:
                return new Agrona(sink, false, true);
            case PRIORITY_QUEUE:
                return new JdkPriorityQueue(sink);
            case TREE_MAP:
                return new JdkTreeMap(sink);
            case TREE_MAP_BUCKETED:
                return new JdkBucketedTreeMap(sink);
            case KAFKA:
                return new KafkaTimingWheel(sink, 20);
            case KAFKA_1024:
                return new KafkaTimingWheel(sink, TICKS_PER_WHEEL);
            default:
                throw new AssertionError(this);
        }
    }

    /** The payload the benchmarks schedule: a reference, as a run loop's task would be. */
    static final Object PAYLOAD = new Object();

    /**
     * Connection numbers 0 to 65,535, boxed once: the payloads of the benchmarks that key timers by
     * number, so that no subject measures boxing, and {@link TickworkLong} hands back the same
     * object it was given.
     */
    static final Integer[] NUMBERS = new Integer[65536];

    static {
        for (int i = 0; i < NUMBERS.length; i++) {
            NUMBERS[i] = i;
        }
    }

    static final class Tickwork implements LongHandleTimers {
        private final TimerQueue<Object> queue;
        private final Consumer<Object> sink;

        Tickwork(TimerKind kind, Consumer<Object> sink) {
            this.queue = kind.create(1, TICKS_PER_WHEEL, SLOT_CAPACITY);
            this.sink = sink;
        }

        @Override
        public long schedule(long deadline, Object payload) {
            return queue.schedule(deadline, payload);
        }

        @Override
        public boolean cancel(long handle) {
            return queue.cancel(handle);
        }

        @Override
        public long reschedule(long handle, long deadline, Object payload) {
            if (!queue.reschedule(handle, deadline)) {
                throw new IllegalStateException("reschedule of a timer that is not live");
            }
            return handle;
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

    /**
     * A tickwork queue of {@code long} payloads behind the object-payload adapter. A payload is
     * stored as a number: {@link #PAYLOAD} as -1, one of {@link #NUMBERS} as its value (a load
     * from that table gives it back on expiry, as an owner's array of connections would), any other
     * object (the adapters' test scripts only) as -2 minus its index in a list this adapter keeps.
     */
    static final class TickworkLong implements LongHandleTimers {
        private final LongTimerQueue queue;
        private final LongConsumer handler;
        private final List<Object> others = new ArrayList<>();

        TickworkLong(TimerKind kind, Consumer<Object> sink) {
            this.queue = kind.createLong(1, TICKS_PER_WHEEL, SLOT_CAPACITY);
            this.handler = v -> sink.accept(v >= 0 ? NUMBERS[(int) v] : v == -1 ? PAYLOAD : others.get((int) (-2 - v)));
        }

        private long encode(Object payload) {
            if (payload == PAYLOAD) {
                return -1;
            }
            if (payload instanceof Integer) {
                int n = (Integer) payload;
                if (n >= 0 && n < NUMBERS.length && NUMBERS[n] == payload) {
                    return n;
                }
            }
            others.add(payload);
            return -1 - others.size();
        }

        @Override
        public long schedule(long deadline, Object payload) {
            return queue.schedule(deadline, encode(payload));
        }

        @Override
        public boolean cancel(long handle) {
            return queue.cancel(handle);
        }

        @Override
        public long reschedule(long handle, long deadline, Object payload) {
            if (!queue.reschedule(handle, deadline)) {
                throw new IllegalStateException("reschedule of a timer that is not live");
            }
            return handle;
        }

        @Override
        public int expire(long now) {
            return queue.expire(now, handler);
        }

        @Override
        public int size() {
            return queue.size();
        }
    }

    /**
     * Agrona's {@code DeadlineTimerWheel}, polled as its run loops poll it. Its handler receives a
     * timer id, not a payload: for {@link #AGRONA}, with the benchmarks' shared {@link #PAYLOAD}
     * nothing is looked up (so it does less work per timer than the others, which hand out a
     * stored reference), and payloads of a test's own go through Agrona's own
     * {@code Long2ObjectHashMap} from id to payload, as its users keep them; for
     * {@link #AGRONA_MAPPED} every payload does.
     */
    static final class Agrona implements LongHandleTimers {
        private final DeadlineTimerWheel wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, 1, TICKS_PER_WHEEL);
        private final DeadlineTimerWheel.TimerHandler handler;
        /** Id to payload: every timer's when mapping every payload, else made for the first other than PAYLOAD. */
        private Long2ObjectHashMap<Object> payloads;

        /** Leaves the spoke of {@code now}'s tick for the next call (see {@link #AGRONA_POLL_ONCE}). */
        private final boolean oneTickLate;

        Agrona(Consumer<Object> sink, boolean mapEveryPayload) {
            this(sink, mapEveryPayload, false);
        }

        Agrona(Consumer<Object> sink, boolean mapEveryPayload, boolean oneTickLate) {
            this.oneTickLate = oneTickLate;
            if (mapEveryPayload) {
                payloads = new Long2ObjectHashMap<>();
            }
            handler = (unit, now, timerId) -> {
                Object payload = payloads == null ? null : payloads.remove(timerId);
                sink.accept(payload == null ? PAYLOAD : payload);
                return true;
            };
        }

        @Override
        public long schedule(long deadline, Object payload) {
            long id = wheel.scheduleTimer(deadline);
            if (payload != PAYLOAD || payloads != null) {
                if (payloads == null) {
                    payloads = new Long2ObjectHashMap<>();
                }
                payloads.put(id, payload);
            }
            return id;
        }

        @Override
        public boolean cancel(long handle) {
            boolean cancelled = wheel.cancelTimer(handle);
            if (cancelled && payloads != null) {
                payloads.remove(handle);
            }
            return cancelled;
        }

        /**
         * {@code poll} scans the spoke of the wheel's current tick and moves to the next tick only
         * once {@code now} has passed the current one, so a run loop polls until the spoke it just
         * scanned is the one holding {@code now}: then every deadline up to {@code now} is handled.
         */
        @Override
        public int expire(long now) {
            int n = 0;
            for (; ; ) {
                long scannedTickEnd = wheel.currentTickTime();
                n += wheel.poll(now, handler, Integer.MAX_VALUE);
                if ((oneTickLate ? wheel.currentTickTime() : scannedTickEnd) > now) {
                    return n;
                }
            }
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

    /** {@code PriorityQueue}: O(log n) schedule and expiry; cancel is its O(n) {@code remove(Object)}. */
    static final class JdkPriorityQueue implements ObjectHandleTimers<Node> {
        private final PriorityQueue<Node> queue = new PriorityQueue<>(BY_DEADLINE_THEN_SEQ);
        private final Consumer<Object> sink;
        private long seq;

        JdkPriorityQueue(Consumer<Object> sink) {
            this.sink = sink;
        }

        @Override
        public Node schedule(long deadline, Object payload) {
            Node n = new Node(deadline, ++seq, payload);
            queue.add(n);
            return n;
        }

        @Override
        public boolean cancel(Node n) {
            return queue.remove(n); // O(n): a linear search (false if absent), then a sift
        }

        @Override
        public int expire(long now) {
            int n = 0;
            Node head;
            while ((head = queue.peek()) != null && head.deadline <= now) {
                queue.poll();
                sink.accept(head.payload);
                n++;
            }
            return n;
        }

        @Override
        public int size() {
            return queue.size();
        }
    }

    /** {@code TreeMap}: O(log n) schedule, cancel and expiry, a map entry per timer. */
    static final class JdkTreeMap implements ObjectHandleTimers<Node> {
        private final TreeMap<Node, Node> map = new TreeMap<>(BY_DEADLINE_THEN_SEQ);
        private final Consumer<Object> sink;
        private long seq;

        JdkTreeMap(Consumer<Object> sink) {
            this.sink = sink;
        }

        @Override
        public Node schedule(long deadline, Object payload) {
            Node n = new Node(deadline, ++seq, payload);
            map.put(n, n);
            return n;
        }

        @Override
        public boolean cancel(Node n) {
            return map.remove(n) != null; // null: it fired or was cancelled
        }

        @Override
        public int expire(long now) {
            int n = 0;
            while (!map.isEmpty() && map.firstKey().deadline <= now) {
                Node head = map.pollFirstEntry().getKey();
                sink.accept(head.payload);
                n++;
            }
            return n;
        }

        @Override
        public int size() {
            return map.size();
        }
    }

    /** A timer of {@link JdkBucketedTreeMap}: a link in its deadline's bucket. */
    static final class BucketNode {
        final long deadline;
        final Object payload;
        BucketNode prev;
        BucketNode next;
        BucketNode bucket; // the sentinel of its bucket; null once it fired or was cancelled
        boolean inMap; // a sentinel's: its bucket is in the map (not taken out by expire)

        BucketNode(long deadline, Object payload) {
            this.deadline = deadline;
            this.payload = payload;
        }
    }

    /** {@code TreeMap<Long, bucket>}: a circular list per deadline, its head a sentinel. */
    static final class JdkBucketedTreeMap implements ObjectHandleTimers<BucketNode> {
        private final TreeMap<Long, BucketNode> map = new TreeMap<>();
        private final Consumer<Object> sink;
        private int size;

        JdkBucketedTreeMap(Consumer<Object> sink) {
            this.sink = sink;
        }

        private static BucketNode sentinel(long deadline) {
            BucketNode head = new BucketNode(deadline, null);
            head.prev = head;
            head.inMap = true;
            head.next = head;
            return head;
        }

        @Override
        public BucketNode schedule(long deadline, Object payload) {
            BucketNode head = map.computeIfAbsent(deadline, JdkBucketedTreeMap::sentinel); // one descent
            BucketNode n = new BucketNode(deadline, payload);
            n.bucket = head;
            n.prev = head.prev; // at the tail: a bucket fires in the order its timers were scheduled
            n.next = head;
            head.prev.next = n;
            head.prev = n;
            size++;
            return n;
        }

        @Override
        public boolean cancel(BucketNode n) {
            BucketNode head = n.bucket;
            if (head == null) {
                return false;
            }
            n.bucket = null;
            n.prev.next = n.next;
            n.next.prev = n.prev;
            if (head.next == head && head.inMap) { // emptied, and not being expired: one descent
                head.inMap = false;
                map.remove(n.deadline);
            }
            size--;
            return true;
        }

        @Override
        public int expire(long now) {
            int fired = 0;
            Map.Entry<Long, BucketNode> first;
            while ((first = map.pollFirstEntry()) != null) { // one descent per bucket
                if (first.getKey() > now) {
                    map.put(first.getKey(), first.getValue()); // not due: back, once per call
                    break;
                }
                BucketNode head = first.getValue();
                head.inMap = false; // a timer the sink cancels leaves this bucket alone
                for (BucketNode n = head.next; n != head; n = n.next) {
                    n.bucket = null;
                    sink.accept(n.payload);
                    fired++;
                    size--;
                }
            }
            return fired;
        }

        @Override
        public int size() {
            return size;
        }
    }
}
