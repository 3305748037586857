/**
 * Timer-queue benchmarks on a virtual clock: tickwork's four {@code TimerKind}s beside Agrona's
 * {@code DeadlineTimerWheel}, the JDK's {@code PriorityQueue} and {@code TreeMap}, and Kafka's
 * hierarchical {@code TimingWheel}, all behind one {@code TimerAdapter} and swept by one
 * {@code @Param} per workload: W1 schedule-then-expire, W1-sparse (distinct deadlines), W2 steady
 * state, W3 schedule+cancel. Results and the command line: {@code docs/results/timer.md}.
 */
package io.tickwork.jmh.timer;
