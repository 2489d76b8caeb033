/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.benchmarks.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.BenchmarkRedis;
import io.distlock.benchmarks.contenders.DistlockApplication;
import io.distlock.benchmarks.contenders.LockContender;
import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Where the time of one uncontended distlock lock+unlock goes, layer by layer, from the
 * raw-Lettuce floor to the full {@code LockTemplate}, and what each fencing capability
 * adds on top of it ({@link FencingLayers}). The published run takes one fork of each
 * variant; run it on demand to analyse a gap to the floor:
 *
 * <pre class="code">
 * java -cp lock-benchmarks/target/benchmarks.jar org.openjdk.jmh.Main CostBreakdown -f 2 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class CostBreakdownBenchmark {

	private static final String KEY = "bench:breakdown";

	private static final Duration TTL = Duration.ofSeconds(LockContender.LEASE_SECONDS);

	private static final Duration WAIT = Duration.ofSeconds(LockContender.WAIT_SECONDS);

	// The keys and arguments with which RedisLockClient runs acquire.lua and release.lua
	// for the lock of KEY (see RedisLockKeys): to be kept in step with those scripts.
	private static final String LOCK = "lock:" + KEY;

	private static final List<String> ACQUIRE_KEYS = List.of(LOCK, derived("fence"), derived("read-holds"),
			derived("writer-waiting"), derived("waiters"));

	private static final List<String> RELEASE_KEYS = List.of(LOCK, derived("queue"), derived("writer-waiting"),
			derived("waiters"));

	private static final String COMPARE_AND_DELETE = """
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  return redis.call('DEL', KEYS[1])
			end
			return 0""";

	private static String derived(String type) {
		return "{" + LOCK + "}\u001f" + type + "\u001f" + LOCK;
	}

	/**
	 * One lock+unlock of the variant.
	 * @param state the variant
	 */
	@Benchmark
	public void lockUnlock(Variant state) {
		state.lockUnlock();
		state.operations++;
	}

	/**
	 * The layers, cumulatively.
	 */
	@State(Scope.Benchmark)
	public static class Variant {

		/**
		 * {@code floor}: raw Lettuce SET NX PX + EVALSHA compare-and-delete;
		 * {@code floor-spring-data}: the same two commands through
		 * {@code StringRedisTemplate}; {@code scripts-lettuce}: distlock's acquire and
		 * release scripts, raw Lettuce, nobody subscribed to the release channel;
		 * {@code client}: {@code RedisLockClient} on its own connection factory, nobody
		 * subscribed; {@code client-in-app}: {@code RedisLockClient} of the Boot
		 * application, whose release notifier receives every release;
		 * {@code template-no-renew}: {@code LockTemplate} with
		 * {@code withAutoRenew(false)}; {@code template-wait-zero}: {@code LockTemplate}
		 * trying once, so without registering as a waiter; {@code template-no-holder}:
		 * {@code LockTemplate} with {@code distlock.describe-holders=false}, owner tokens
		 * without the holder's description; {@code template}: {@code LockTemplate} as
		 * published; {@code template-commit-guard}: {@code LockTemplate.execute} around a
		 * transaction of a transaction manager that does nothing but run the
		 * {@code LockCommitGuard}; {@code template-redis-fence}: {@code LockTemplate}
		 * with one {@code RedisFencedWrites.set} under the lock;
		 * {@code template-jdbc-fence}: {@code LockTemplate} with a transaction on an
		 * in-memory H2 database that runs {@code JdbcFence.check}.
		 * {@code scripts-template}, distlock's scripts through
		 * {@code StringRedisTemplate}, is how {@code RedisLockClient} ran them before
		 * issue 18.
		 */
		@Param({ "floor", "floor-spring-data", "scripts-lettuce", "scripts-template", "client", "client-in-app",
				"template-no-renew", "template-wait-zero", "template-no-holder", "template", "template-commit-guard",
				"template-redis-fence", "template-jdbc-fence" })
		public String variant = "";

		private @Nullable RedisClient lettuce;

		private @Nullable StatefulRedisConnection<String, String> connection;

		private @Nullable RedisCommands<String, String> commands;

		private @Nullable LettuceConnectionFactory factory;

		private @Nullable StringRedisTemplate redis;

		private @Nullable DistlockApplication application;

		private @Nullable RedisLockClient client;

		private @Nullable LockTemplate template;

		private @Nullable FencingLayers fencing;

		private String releaseSha = "";

		private @Nullable CpuMeter cpu;

		private long operations;

		private long measuredOperations;

		private boolean measuring;

		private String acquireSha = "";

		private final RedisScript<Long> compareAndDelete = RedisScript.of(COMPARE_AND_DELETE, Long.class);

		@SuppressWarnings("rawtypes")
		private final RedisScript<List> acquireScript = RedisScript
			.of(script("acquire.lua", "time.lua", "fencing.lua", "holder.lua"), List.class);

		private final RedisScript<Long> releaseScript = RedisScript.of(script("release.lua", "publish.lua"),
				Long.class);

		/**
		 * Set up the variant.
		 */
		@Setup(Level.Trial)
		public void setUp() {
			RedisAddress address = BenchmarkRedis.address();
			this.cpu = new CpuMeter(address);
			switch (this.variant) {
				case "floor" -> {
					connectLettuce(address);
					this.releaseSha = commands().scriptLoad(COMPARE_AND_DELETE);
				}
				case "scripts-lettuce" -> {
					connectLettuce(address);
					this.acquireSha = commands()
						.scriptLoad(script("acquire.lua", "time.lua", "fencing.lua", "holder.lua"));
					this.releaseSha = commands().scriptLoad(script("release.lua", "publish.lua"));
				}
				case "floor-spring-data", "scripts-template", "client" -> {
					LettuceConnectionFactory factory = new LettuceConnectionFactory(
							new RedisStandaloneConfiguration(address.host(), address.port()));
					factory.afterPropertiesSet();
					factory.start();
					this.factory = factory;
					this.redis = new StringRedisTemplate(factory);
					this.client = new RedisLockClient(factory);
				}
				default -> {
					this.application = DistlockApplication.start(address,
							"distlock.describe-holders=" + !"template-no-holder".equals(this.variant));
					this.template = this.application.lockTemplate();
					this.client = new RedisLockClient(this.application.connectionFactory());
					if (FencingLayers.VARIANTS.contains(this.variant)) {
						this.fencing = new FencingLayers(this.variant, this.application);
					}
				}
			}
		}

		void lockUnlock() {
			String token = UUID.randomUUID().toString();
			switch (this.variant) {
				case "floor" -> {
					RedisCommands<String, String> commands = commands();
					check("OK".equals(commands.set(KEY, token, SetArgs.Builder.nx().px(TTL.toMillis()))));
					commands.evalsha(this.releaseSha, ScriptOutputType.INTEGER, new String[] { KEY }, token);
				}
				case "floor-spring-data" -> {
					StringRedisTemplate redis = this.redis;
					check(redis != null && Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(KEY, token, TTL)));
					redis.execute(this.compareAndDelete, List.of(KEY), token);
				}
				case "scripts-lettuce" -> {
					RedisCommands<String, String> commands = commands();
					List<Object> acquired = commands.evalsha(this.acquireSha, ScriptOutputType.MULTI,
							ACQUIRE_KEYS.toArray(new String[0]), acquireArgs(token));
					check(Long.valueOf(1).equals(acquired.get(0)));
					commands.evalsha(this.releaseSha, ScriptOutputType.INTEGER, RELEASE_KEYS.toArray(new String[0]),
							releaseArgs(token));
				}
				case "scripts-template" -> {
					StringRedisTemplate redis = this.redis;
					check(redis != null && Long.valueOf(1)
						.equals(redis.execute(this.acquireScript, ACQUIRE_KEYS, (Object[]) acquireArgs(token)).get(0)));
					redis.execute(this.releaseScript, RELEASE_KEYS, (Object[]) releaseArgs(token));
				}
				case "client", "client-in-app" -> {
					RedisLockClient client = this.client;
					check(client != null && client.tryAcquire(LOCK, token, TTL) instanceof AcquireResult.Acquired);
					client.release(LOCK, token);
				}
				case "template-no-renew" -> {
					try (LockHandle lock = template().tryAcquire(LockRequest.of(KEY, TTL, WAIT).withAutoRenew(false))
						.orElseThrow()) {
						// Nothing under the lock.
					}
				}
				case "template-commit-guard", "template-redis-fence", "template-jdbc-fence" -> {
					FencingLayers fencing = this.fencing;
					if (fencing == null) {
						throw new IllegalStateException("Not set up");
					}
					fencing.lockUnlock(KEY, TTL, WAIT);
				}
				case "template-wait-zero" -> {
					try (LockHandle lock = template().tryAcquire(KEY, TTL, Duration.ZERO).orElseThrow()) {
						// Nothing under the lock.
					}
				}
				default -> {
					try (LockHandle lock = template().tryAcquire(KEY, TTL, WAIT).orElseThrow()) {
						// Nothing under the lock.
					}
				}
			}
		}

		/**
		 * Start measuring the CPU time of a measurement iteration.
		 * @param iteration the iteration
		 */
		@Setup(Level.Iteration)
		public void startIteration(IterationParams iteration) {
			this.measuring = iteration.getType() == IterationType.MEASUREMENT;
			this.operations = 0;
			cpu().startIteration(iteration);
		}

		/**
		 * Add up the CPU time of a measurement iteration.
		 */
		@TearDown(Level.Iteration)
		public void endIteration() {
			cpu().endIteration();
			if (this.measuring) {
				this.measuredOperations += this.operations;
			}
		}

		/**
		 * Print the CPU cost per operation and close the variant's connections.
		 */
		@TearDown(Level.Trial)
		public void tearDown() {
			Path directory = BenchmarkFiles.cpu(BenchmarkFiles.resultsDirectory(), "breakdown", this.variant);
			cpu().write(directory, this.measuredOperations);
			cpu().print(this.variant, this.measuredOperations);
			if (this.connection != null) {
				this.connection.close();
			}
			if (this.lettuce != null) {
				this.lettuce.shutdown();
			}
			if (this.factory != null) {
				this.factory.destroy();
			}
			if (this.fencing != null) {
				this.fencing.close();
			}
			if (this.application != null) {
				this.application.close();
			}
		}

		private void connectLettuce(RedisAddress address) {
			this.lettuce = RedisClient.create(RedisURI.create(address.host(), address.port()));
			this.connection = this.lettuce.connect();
			this.commands = this.connection.sync();
		}

		private CpuMeter cpu() {
			CpuMeter cpu = this.cpu;
			if (cpu == null) {
				throw new IllegalStateException("Not set up");
			}
			return cpu;
		}

		private RedisCommands<String, String> commands() {
			RedisCommands<String, String> commands = this.commands;
			if (commands == null) {
				throw new IllegalStateException("Not set up");
			}
			return commands;
		}

		private LockTemplate template() {
			LockTemplate template = this.template;
			if (template == null) {
				throw new IllegalStateException("Not set up");
			}
			return template;
		}

		private static String[] acquireArgs(String token) {
			return new String[] { token, String.valueOf(TTL.toMillis()), "600000", "2000", "1", "1" };
		}

		private static String[] releaseArgs(String token) {
			return new String[] { token, "distlock:released:{" + LOCK + "}\u001f" + LOCK, LOCK, "PUBLISH" };
		}

		private static void check(boolean acquired) {
			if (!acquired) {
				throw new IllegalStateException("Lock '" + KEY + "' was busy");
			}
		}

		/**
		 * Assemble a script as {@code LockScripts} does: the prelude files it calls, in
		 * {@code LockScripts.Prelude}'s order, then its own file.
		 */
		private static String script(String name, String... prelude) {
			StringBuilder text = new StringBuilder();
			for (String piece : prelude) {
				text.append(read(piece)).append('\n');
			}
			return text.append(read(name)).toString();
		}

		private static String read(String name) {
			try (InputStream input = new ClassPathResource("io/distlock/redis/" + name).getInputStream()) {
				return new String(input.readAllBytes(), StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
