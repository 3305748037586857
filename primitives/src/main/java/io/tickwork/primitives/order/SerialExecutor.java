package io.tickwork.primitives.order;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * An {@link Executor} that runs its tasks one at a time, in submission order, on a shared pool,
 * without owning a thread.
 *
 * <p>Guarantees of every implementation in this package:
 * <ul>
 *   <li><b>FIFO</b>: tasks run in the order in which the {@code execute} calls linearize (each
 *       implementation names its linearization point).</li>
 *   <li><b>Mutual exclusion and happens-before</b>: a task starts only after the previous one
 *       finished, and everything the previous task did happens-before the next one starts, even
 *       when they run on different pool threads.</li>
 *   <li><b>Failure isolation</b>: a task that throws is reported to the failure handler (default:
 *       the running thread's {@link Thread.UncaughtExceptionHandler}) and the next task runs.</li>
 *   <li><b>Iterative draining with a fairness budget</b>: a pool thread runs at most
 *       {@code budget} tasks of one executor in a row, then hands the rest back to the pool, so a
 *       busy executor cannot starve others on a small pool; the stack never grows with the chain.</li>
 *   <li><b>Rejection is reported, never silent</b>: if the pool rejects the submission that would
 *       start this task, {@code execute} throws {@link RejectedExecutionException} and the task
 *       never runs; the executor is not left stuck, a later {@code execute} runs normally. Tasks
 *       whose {@code execute} returned normally are never dropped: if the pool refuses to take
 *       them back (a rejected hand-off), they run on the thread that saw the rejection.</li>
 *   <li><b>No retention</b>: a task is unreachable from the executor once it has started.</li>
 * </ul>
 *
 * <p>How many threads may call {@code execute} concurrently depends on the implementation
 * ({@link SingleProducerSerialExecutor}: one at a time; {@link MultiProducerSerialExecutor} and
 * the executors of a {@link SerialExecutorGroup}: any).
 */
public interface SerialExecutor extends Executor {

    /**
     * Runs {@code task} after every task whose {@code execute} linearized before this call.
     *
     * @throws RejectedExecutionException if the pool rejected the submission that would have
     *     started this task; the task will not run
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    void execute(Runnable task);
}
