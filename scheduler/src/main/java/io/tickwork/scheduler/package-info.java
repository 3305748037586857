/**
 * Kilim coroutine scheduling on the tickwork timer queues: {@link io.tickwork.scheduler.RunLoopScheduler},
 * a Kilim {@code Scheduler} with one run loop per thread (FIFO run queue, MPSC inbox for wake-ups from
 * other threads, one {@link io.tickwork.primitives.timer.TimerQueue} of any
 * {@link io.tickwork.primitives.timer.TimerKind}), and {@link io.tickwork.scheduler.TaskSleep}, a sleep
 * without Kilim's per-call mailbox.
 *
 * <p>Inside, the dependencies run one way: the two entry points, {@code RunLoopScheduler} and
 * {@code TaskSleep}, use {@code RunLoop}, which uses {@code LoopTimer}, {@code LoopInbox},
 * {@code TaskRing} and {@code LoopExit}; a loop and a timer see their scheduler only through the
 * narrow {@code LoopOwner} interface.
 *
 * <p>Kilim tasks must be woven before they run (an unwoven task calls {@code System.exit(0)}): this
 * module's build weaves its own classes and its tests with the kilim plugin at
 * {@code process-test-classes}, with ASM 9.8 as plugin dependency (Kilim's ASM 7.1 cannot read JDK 17
 * class files). Woven code must not use records or sealed types, and a pausable method must not merge
 * stack frames over {@code Long}, {@code Integer} or {@code String} values (their sealed
 * {@code ConstantDesc} interface breaks the weaver's ASM7 visitors).
 */
package io.tickwork.scheduler;
