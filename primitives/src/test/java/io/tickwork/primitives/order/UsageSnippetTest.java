package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The class comment's snippets, compiled and run as written there. */
class UsageSnippetTest {
    /** A ledger that is not thread safe per account: the executor keeps each account serial. */
    static final class Ledger {
        final Map<String, Long> balances = new ConcurrentHashMap<>();

        void credit(String account, long amount) {
            balances.merge(account, amount, Long::sum);
        }

        void debit(String account, long amount) {
            long before = balances.getOrDefault(account, 0L);
            balances.put(account, before - amount); // read-modify-write: needs the key's order
        }
    }

    @Test
    void theClassCommentsExample() throws Exception {
        Ledger ledger = new Ledger();
        ExecutorService pool = Executors.newCachedThreadPool(); // or virtual threads, or any Executor
        try (KeyedSerialExecutor<String> accounts = KeyedSerialExecutor.create(pool)) {
            accounts.execute("alice", () -> ledger.credit("alice", 10));
            accounts.execute("bob", () -> ledger.debit("bob", 5)); // beside alice's tasks
            accounts.execute("alice", () -> ledger.debit("alice", 3)); // after alice's credit
        } // close(): accepts no more tasks, waits until every accepted one has run
        assertEquals(Map.of("alice", 7L, "bob", -5L), ledger.balances);
        Pools.shutdownAndAwait(pool);
    }

    @Test
    void theBuildersExample() throws Exception {
        Logger log = Logger.getLogger("users");
        ExecutorService pool = Executors.newCachedThreadPool();
        KeyedSerialExecutor<Long> users = KeyedSerialExecutor.builder(pool)
                .maxQueuedPerKey(10_000) // the 10,001st waiting task of a user is rejected
                .failureHandler((Long user, Runnable task, Throwable e) -> log.warning("user " + user + ": " + e))
                .build();
        users.execute(42L, () -> {});
        users.close();
        assertEquals(1, users.stats().completedTasks());
        Pools.shutdownAndAwait(pool);
    }
}
