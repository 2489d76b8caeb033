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

package io.distlock.autoconfigure;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.core.env.Environment;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InvalidDistLockPropertyFailureAnalyzer}, on the failures the
 * auto-configuration really throws. No Redis is needed: each failure comes before any
 * connection.
 */
class InvalidDistLockPropertyFailureAnalyzerTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class));

	@Test
	void tooFewRedlockNodesShowTheNodesWithoutCredentialsAndAskForAtLeastThree() {
		FailureAnalysis analysis = analyzeStartupFailure(this.contextRunner,
				"distlock.redlock.nodes=redis://:s3cret@127.0.0.1:1,rediss://127.0.0.1:2");
		assertThat(analysis.getDescription()).isEqualTo(
				String.format("Invalid value for configuration property 'distlock.redlock.nodes' (originating from "
						+ "'\"distlock.redlock.nodes\" from property source \"test\"'):%n%n"
						+ "    Value: [redis://..., rediss://...]%n"
						+ "    Reason: distlock.redlock.nodes lists 2 nodes, but Redlock needs at least 3 independent "
						+ "Redis masters"));
		assertThat(analysis.getAction()).isEqualTo("List an odd number of at least 3 independent Redis masters in "
				+ "distlock.redlock.nodes (3 tolerate the loss of 1, 5 the loss of 2), or remove it to lock on "
				+ "spring.data.redis.");
	}

	@Test
	void invalidRedlockNodeUrlNamesTheNodeWithoutItsCredentials() {
		FailureAnalysis analysis = analyzeStartupFailure(this.contextRunner,
				"distlock.redlock.nodes=redis://127.0.0.1:1,redis://:s3cret@host:notaport,redis://127.0.0.1:3");
		assertThat(analysis.getDescription()).contains("Value: [redis://..., redis://..., redis://...]")
			.contains("distlock.redlock.nodes[1] (redis://..., the rest not shown) is not a valid Redis URL")
			.doesNotContain("s3cret");
		assertThat(analysis.getAction()).startsWith("Write each node as redis://[[user]:password@]host");
	}

	@Test
	void missingSslBundleIsToBeDefinedOrRenamed() {
		FailureAnalysis analysis = analyzeStartupFailure(
				this.contextRunner.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class)),
				"distlock.redlock.nodes=rediss://127.0.0.1:1,rediss://127.0.0.1:2,rediss://127.0.0.1:3",
				"distlock.redlock.ssl-bundle=nodes");
		assertThat(analysis.getDescription()).contains("'distlock.redlock.ssl-bundle'")
			.contains("Value: nodes")
			.contains("Reason: distlock.redlock.ssl-bundle names SSL bundle 'nodes', which is not configured");
		assertThat(analysis.getAction()).isEqualTo("Define SSL bundle 'nodes' under spring.ssl.bundle.pem.nodes or "
				+ "spring.ssl.bundle.jks.nodes, or name a configured bundle in distlock.redlock.ssl-bundle.");
	}

	@Test
	void replicationTimeoutNotShorterThanTheCommandTimeoutOffersBothChanges() {
		FailureAnalysis analysis = analyzeStartupFailure(this.contextRunner, "distlock.replication.min-replicas=1",
				"distlock.replication.timeout=2s", "spring.data.redis.timeout=2s");
		assertThat(analysis.getDescription()).contains("'distlock.replication.timeout'").contains("Value: 2000ms");
		assertThat(analysis.getAction()).isEqualTo(
				"Set distlock.replication.timeout below 2000ms, or raise spring.data.redis.timeout above 2000ms.");
	}

	@Test
	void propertyWithoutAKnownOriginIsDescribedWithoutOne() {
		InvalidDistLockPropertyException failure = new InvalidDistLockPropertyException("distlock.replication.timeout",
				"2000ms", "too long", "Shorten it");
		FailureAnalysis analysis = analyze(failure, new MockEnvironment());
		assertThat(analysis.getDescription())
			.isEqualTo(String.format("Invalid value for configuration property 'distlock.replication.timeout':%n%n"
					+ "    Value: 2000ms%n    Reason: too long"));
		assertThat(analysis.getAction()).isEqualTo("Shorten it.");
	}

	private static FailureAnalysis analyzeStartupFailure(ApplicationContextRunner contextRunner, String... properties) {
		AtomicReference<Throwable> failure = new AtomicReference<>();
		contextRunner.withPropertyValues(properties).run((context) -> failure.set(context.getStartupFailure()));
		// The failed context hands out no environment; this one holds the same
		// properties.
		MockEnvironment environment = new MockEnvironment();
		TestPropertyValues.of(properties).applyTo(environment);
		return analyze(failure.get(), environment);
	}

	private static FailureAnalysis analyze(Throwable failure, Environment environment) {
		assertThat(failure).isNotNull();
		FailureAnalysis analysis = new InvalidDistLockPropertyFailureAnalyzer(environment).analyze(failure);
		assertThat(analysis).as("analysis of " + failure).isNotNull();
		return analysis;
	}

}
