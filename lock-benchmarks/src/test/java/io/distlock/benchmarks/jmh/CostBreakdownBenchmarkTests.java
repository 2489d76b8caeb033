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

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmh.annotations.Param;

import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.BenchmarkRedis;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;

import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Every layer of {@link CostBreakdownBenchmark} locks and unlocks on a real Redis, so
 * that a layer that no longer matches the scripts or the API it measures fails the build,
 * not the benchmark run half an hour in. The variants are read from the benchmark's own
 * {@link Param}, so a new one is covered without a change here.
 */
class CostBreakdownBenchmarkTests {

	private static RedisServer redis;

	@TempDir
	static Path results;

	@BeforeAll
	static void startRedis() {
		redis = RedisServer.start();
		System.setProperty(BenchmarkRedis.REDIS_PROPERTY, redis.host() + ":" + redis.port());
		System.setProperty(BenchmarkFiles.RESULTS_PROPERTY, results.toString());
	}

	@AfterAll
	static void stopRedis() {
		System.clearProperty(BenchmarkRedis.REDIS_PROPERTY);
		System.clearProperty(BenchmarkFiles.RESULTS_PROPERTY);
		redis.close();
	}

	static Stream<String> variants() throws NoSuchFieldException {
		Param variants = CostBreakdownBenchmark.Variant.class.getField("variant").getAnnotation(Param.class);
		return Arrays.stream(variants.value());
	}

	@ParameterizedTest
	@MethodSource("variants")
	void variantLocksAndUnlocksTwiceOnARealRedis(String variant) {
		// As BenchmarkMain does before each fork: nothing one variant left behind meets
		// the next.
		try (RespConnection connection = redis.connect(Duration.ofSeconds(2))) {
			connection.command("FLUSHALL");
		}
		CostBreakdownBenchmark.Variant state = new CostBreakdownBenchmark.Variant();
		state.variant = variant;
		state.setUp();
		try {
			// Twice: the second lock of the key fails if the first unlock left it held.
			assertThatNoException().isThrownBy(state::lockUnlock);
			assertThatNoException().isThrownBy(state::lockUnlock);
		}
		finally {
			state.tearDown();
		}
	}

}
