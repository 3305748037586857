package io.tickwork.jmh.timer;

/**
 * The smallest timer API every subject of the timer benchmarks can offer on a virtual clock:
 * tickwork's four {@code TimerQueue}s and the peers (Agrona, JDK {@code PriorityQueue},
 * {@code TreeMap}, Kafka's {@code TimingWheel}). Each expired timer's payload goes to the sink
 * given at creation (a {@code Blackhole} in the benchmarks, a recorder in the adapters' test), so
 * no subject can have its expiry path eliminated.
 *
 * <p>Every subject is one of two kinds, and a workload that cancels or moves timers keeps them
 * where that kind's users keep them: a {@code long[]} of handles for the subjects that hand out
 * numbers (tickwork's handles, Agrona's timer ids; {@link LongHandleTimers}), an {@code Object[]}
 * of the timer objects for those whose timers are objects (a JDK node, Kafka's
 * {@code TimerTask}; {@link ObjectHandleTimers}). No subject pays for a translation from one to
 * the other. A workload that never cancels calls {@link #add}.
 *
 * <p>The contract the benchmarks rely on, checked for every subject by {@code TimerAdaptersTest}:
 * a timer fires exactly once, never before its deadline and at most one tick after it; a cancelled
 * timer never fires; a cancel answers true exactly once for a live timer.
 */
interface TimerAdapter {

    /** Schedules {@code payload} at {@code deadline}, keeping no handle: it will not be cancelled. */
    void add(long deadline, Object payload);

    /** Hands every timer due at {@code now} to the sink; returns how many. */
    int expire(long now);

    /** Pending timers. */
    int size();
}
