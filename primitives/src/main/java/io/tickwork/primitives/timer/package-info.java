/**
 * Timer queues for single-threaded run loops: one contract, {@link io.tickwork.primitives.timer.TimerQueue}
 * ({@link io.tickwork.primitives.timer.LongTimerQueue} for {@code long} payloads), built on the
 * owner's clock by {@link io.tickwork.primitives.timer.TimerQueue#builder}, with interchangeable
 * implementations (a red-black tree and three timing wheels) chosen by
 * {@link io.tickwork.primitives.timer.TimerKind}. The coroutine scheduler and the NIO server both run on them.
 */
package io.tickwork.primitives.timer;
