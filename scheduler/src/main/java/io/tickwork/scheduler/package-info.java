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
 * <p><b>Weaving your tasks.</b> Kilim tasks must be woven after compiling and before anything runs
 * them ({@link io.tickwork.scheduler.RunLoopScheduler#start} refuses a class that was not). With
 * Maven, the kilim plugin's {@code weave} goal, which resolves the project's runtime dependencies
 * (tickwork-scheduler among them: the weaver must see it to know that
 * {@link io.tickwork.scheduler.TaskSleep#sleep(long)} pauses, else that call stays unwoven and
 * throws {@code IllegalStateException}):
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>org.db4j</groupId>
 *   <artifactId>kilim</artifactId>
 *   <version>2.0.2</version>
 *   <executions><execution><goals><goal>weave</goal></goals></execution></executions>
 *   <dependencies> <!-- Kilim's own ASM 7.1 cannot read JDK 17 class files -->
 *     <dependency><groupId>org.ow2.asm</groupId><artifactId>asm</artifactId><version>9.8</version></dependency>
 *     <dependency><groupId>org.ow2.asm</groupId><artifactId>asm-tree</artifactId><version>9.8</version></dependency>
 *   </dependencies>
 * </plugin>
 * }</pre>
 *
 * <p>By hand: {@code java -cp <kilim, asm and asm-tree 9.8, tickwork-scheduler, your dependencies, your
 * classes> kilim.tools.Weaver -d <out> <your classes>}, then run with {@code <out>} ahead of your classes.
 * Without tickwork-scheduler on the weaver's class path it still succeeds, silently, but leaves
 * {@code TaskSleep.sleep} calls unwoven: they throw {@code IllegalStateException} when run.
 * A task starts on this scheduler through {@code start}; a plain {@code Task.start()} (a child
 * started from a task, say) goes to Kilim's default scheduler unless
 * {@code Scheduler.setDefaultScheduler(scheduler)} made this one the default.
 *
 * <p>On JDK 24 and later the JVM prints a warning the first time a scheduler is built: the loops'
 * inboxes are JCTools queues, which use {@code sun.misc.Unsafe} (JEP 471 and 498), and so does
 * Kilim's own {@code Task} (the flag in its timer), whatever the scheduler. Nothing else changes;
 * {@code --sun-misc-unsafe-memory-access=allow} silences it. Under {@code =deny}, the default JEP
 * 498 plans for a later release, building a scheduler throws {@code ExceptionInInitializerError}
 * (Temurin 25): this scheduler runs where Kilim runs.
 *
 * <p>An unwoven task calls {@code System.exit(0)} when run: this
 * module's build weaves its own classes and its tests with the kilim plugin at
 * {@code process-test-classes}, with ASM 9.8 as plugin dependency (Kilim's ASM 7.1 cannot read JDK 17
 * class files). Woven code must not use records or sealed types, and a pausable method must not merge
 * stack frames over {@code Long}, {@code Integer} or {@code String} values (their sealed
 * {@code ConstantDesc} interface breaks the weaver's ASM7 visitors).
 */
package io.tickwork.scheduler;
