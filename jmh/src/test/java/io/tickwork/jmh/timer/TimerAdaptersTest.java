package io.tickwork.jmh.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every timer benchmark subject, ours and each peer's adapter, runs the same seeded random script
 * of schedule, re-arm, cancel and advance against a reference model, keeping its timers as the
 * benchmarks do ({@link TimerSlots}: handles, or the timer objects). The benchmarks compare like with like only if
 * every adapter keeps the contract of {@link TimerAdapter}: a timer fires exactly once,
 * never before its deadline and no later than the first {@code expire} at or past it (the
 * subjects run with one time unit per tick, so "at most one tick late" leaves no slack); a
 * cancelled timer never fires; {@code cancel} answers true once for a live timer and false for a
 * fired or cancelled one (except Agrona's, whose ids are reused at once); {@code size} counts the
 * live timers. A failure names the random seed.
 */
class TimerAdaptersTest {

    /** One scheduled timer of the script, carried as its own payload. */
    private static final class Probe {
        final int id;
        long deadline;
        boolean fired;
        boolean cancelled;

        Probe(int id, long deadline) {
            this.id = id;
            this.deadline = deadline;
        }

        @Override
        public String toString() {
            return "timer " + id + " (deadline " + deadline + ")";
        }
    }

    @ParameterizedTest
    @EnumSource(TimerSubject.class)
    void everySubjectKeepsTheTimerContract(TimerSubject subject) {
        for (long seed = 1; seed <= 12; seed++) {
            runScript(subject, seed, 6_000);
        }
    }

    /**
     * The payloads of the benchmarks that key timers by number ({@link TimerSubject#NUMBERS}, as
     * the server-loop workload schedules them): each comes back as the very object scheduled, at
     * its deadline (a tick later for {@link TimerSubject#AGRONA_POLL_ONCE}), whether a subject
     * stores references, maps ids or stores numbers.
     */
    @ParameterizedTest
    @EnumSource(TimerSubject.class)
    void everySubjectHandsBackTheNumberedPayloads(TimerSubject subject) {
        List<Object> fired = new ArrayList<>();
        TimerAdapter timers = subject.create(fired::add);
        int n = 3_000; // timer i carries NUMBERS[21 * i], due at 1 + i % 700
        for (int i = 0; i < n; i++) {
            timers.add(1 + i % 700, TimerSubject.NUMBERS[21 * i]);
        }
        long lateness = subject == TimerSubject.AGRONA_POLL_ONCE ? 1 : 0;
        for (long now = 1; now <= 700 + lateness; now++) {
            int before = fired.size();
            timers.expire(now);
            for (int k = before; k < fired.size(); k++) {
                int number = (Integer) fired.get(k);
                assertTrue(
                        number % 21 == 0 && fired.get(k) == TimerSubject.NUMBERS[number],
                        subject + ": payload " + number + " is not an object scheduled");
                assertEquals(
                        now - lateness, 1 + (number / 21) % 700, subject + ": payload " + number + " fired at " + now);
            }
        }
        assertEquals(n, fired.size(), subject + ": payloads handed out");
        assertEquals(0, timers.size(), subject + ": live after the last deadline");
    }

    /**
     * The configuration the benchmarks run: every timer carries the one shared
     * {@link TimerSubject#PAYLOAD} (Agrona's adapter then keeps no map of payloads). Timers cannot
     * be told apart by payload, so the model checks counts: each {@code expire} hands out exactly
     * the live timers due by then, a cancel answers true exactly for a live timer, and {@code size}
     * follows.
     */
    @ParameterizedTest
    @EnumSource(TimerSubject.class)
    void everySubjectKeepsTheContractWithTheSharedPayload(TimerSubject subject) {
        for (long seed = 1; seed <= 6; seed++) {
            String where = subject + ", shared payload, seed " + seed + ": ";
            SplittableRandom rnd = new SplittableRandom(seed);
            long[] fired = {0};
            TimerAdapter timers = subject.create(payload -> {
                assertTrue(payload == TimerSubject.PAYLOAD, where + "a payload other than the shared one");
                fired[0]++;
            });
            int steps = 4_000;
            TimerSlots slots = TimerSlots.of(timers, steps); // a slot per schedule, never reused
            java.util.Map<Integer, Long> live = new java.util.HashMap<>(); // slot -> deadline
            long now = 0;
            for (int step = 0; step < steps; step++) {
                int op = rnd.nextInt(10);
                if (op < 5) {
                    long deadline = now + 1 + rnd.nextInt(3_000);
                    slots.schedule(step, deadline, TimerSubject.PAYLOAD);
                    for (Integer other : live.keySet()) {
                        assertFalse(
                                slots.handle(other).equals(slots.handle(step)),
                                where + "handle " + slots.handle(step) + " given to two live timers");
                    }
                    live.put(step, deadline);
                } else if (op < 7 && !live.isEmpty()) {
                    Integer slot = live.keySet().iterator().next();
                    if (op == 5) {
                        long deadline = now + 1 + rnd.nextInt(3_000);
                        slots.reschedule(slot, deadline, TimerSubject.PAYLOAD);
                        live.put(slot, deadline);
                    } else {
                        assertTrue(slots.cancel(slot), where + "cancel of a live timer answered false");
                        live.remove(slot);
                    }
                } else {
                    // AGRONA_POLL_ONCE, after a jump of more than a revolution, may also hand out a
                    // timer due at now (its spoke is scanned on the way): counts are exact on short steps
                    boolean jump = rnd.nextInt(20) == 0 && subject != TimerSubject.AGRONA_POLL_ONCE;
                    now += 1 + rnd.nextInt(jump ? 2_000 : 3);
                    // AGRONA_POLL_ONCE leaves the spoke of now's tick for the next call
                    long due = subject == TimerSubject.AGRONA_POLL_ONCE ? now - 1 : now;
                    long expected = live.values().stream().filter(d -> d <= due).count();
                    live.values().removeIf(d -> d <= due);
                    fired[0] = 0;
                    timers.expire(now);
                    assertEquals(expected, fired[0], where + "timers handed out by expire(" + now + ")");
                }
                assertEquals(live.size(), timers.size(), where + "size() after step " + step);
            }
        }
    }

    private static void runScript(TimerSubject subject, long seed, int steps) {
        String where = subject + ", seed " + seed + ": ";
        // at most this many time units late: one tick for the subject that polls Agrona once per tick
        long lateness = subject == TimerSubject.AGRONA_POLL_ONCE ? 1 : 0;
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] now = {0};
        List<Probe> live = new ArrayList<>();
        List<Probe> dead = new ArrayList<>();
        TimerAdapter timers = subject.create(payload -> {
            Probe p = (Probe) payload;
            if (p.cancelled) {
                fail(where + p + " fired after it was cancelled");
            }
            if (p.fired) {
                fail(where + p + " fired twice");
            }
            if (p.deadline > now[0]) {
                fail(where + p + " fired early, at " + now[0]);
            }
            p.fired = true;
        });
        int ids = 0;
        TimerSlots slots = TimerSlots.of(timers, steps); // probe i in slot i
        for (int step = 0; step < steps; step++) {
            int op = rnd.nextInt(10);
            boolean advanced = false;
            if (op < 5) {
                // deadlines from the past to three wheel revolutions ahead (1,024 ticks each)
                long deadline = now[0] + rnd.nextInt(3_100) - 50;
                Probe p = new Probe(ids++, deadline);
                slots.schedule(p.id, deadline, p);
                live.add(p);
            } else if (op == 5 && rnd.nextBoolean() && !live.isEmpty()) {
                // re-arm: tickwork's reschedule (same handle), the peers' cancel plus schedule
                Probe p = live.get(rnd.nextInt(live.size()));
                if (!p.fired && !p.cancelled) {
                    p.deadline = now[0] + rnd.nextInt(3_100) - 50;
                    slots.reschedule(p.id, p.deadline, p);
                }
            } else if (op < 7 && !live.isEmpty()) {
                Probe p = live.get(rnd.nextInt(live.size()));
                boolean wasLive = !p.fired;
                boolean cancelled = slots.cancel(p.id);
                assertEquals(wasLive, cancelled, where + "cancel of " + p + " answered " + cancelled);
                p.cancelled |= cancelled;
            } else if (op < 8
                    && !dead.isEmpty()
                    && subject != TimerSubject.AGRONA
                    && subject != TimerSubject.AGRONA_MAPPED
                    && subject != TimerSubject.AGRONA_POLL_ONCE) {
                // Agrona reuses a timer id as soon as its timer is gone (no generation), so a stale
                // id may cancel a younger timer: its contract, and no benchmark cancels a stale id.
                Probe p = dead.get(rnd.nextInt(dead.size()));
                assertFalse(slots.cancel(p.id), where + "cancel of the finished " + p + " answered true");
            } else {
                now[0] += rnd.nextInt(20) == 0 ? rnd.nextInt(2_000) : 1 + rnd.nextInt(3);
                timers.expire(now[0]);
                advanced = true;
            }
            // timers that finished (fired at schedule time, fired on expire, cancelled) leave the live set
            for (int i = live.size() - 1; i >= 0; i--) {
                Probe p = live.get(i);
                if (p.fired || p.cancelled) {
                    live.set(i, live.get(live.size() - 1));
                    live.remove(live.size() - 1);
                    dead.add(p);
                } else if (advanced && p.deadline + lateness <= now[0]) {
                    fail(where + p + " had not fired by expire(" + now[0] + ")");
                }
            }
            assertEquals(live.size(), timers.size(), where + "size() after step " + step);
        }
        now[0] += 10_000;
        timers.expire(now[0]);
        for (Probe p : live) {
            assertTrue(p.fired, where + p + " never fired");
        }
        assertEquals(0, timers.size(), where + "size() after the final expire");
    }
}
