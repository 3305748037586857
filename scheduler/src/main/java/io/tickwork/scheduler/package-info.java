/**
 * Kilim coroutine scheduling on the tickwork timer queues: one run loop per thread, any timer
 * variant pluggable, sleep, timeouts and mailboxes.
 */
package io.tickwork.scheduler;
