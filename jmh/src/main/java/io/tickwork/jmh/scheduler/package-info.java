/**
 * Coroutine scheduling benchmarks: tickwork's {@code RunLoopScheduler} with each timer kind beside
 * Kilim's stock {@code AffineScheduler} and {@code ForkJoinScheduler} on the same woven tasks, and
 * JDK virtual threads on JDK 21 and later. Every Kilim task here is woven at build time (see the
 * kilim plugin in {@code jmh/pom.xml}).
 */
package io.tickwork.jmh.scheduler;
