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

package io.distlock.tls;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;
import io.distlock.test.TestCertificates;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application locks on a Redis that accepts only TLS, configured with
 * {@code spring.data.redis.ssl.*} and a PEM SSL bundle: locks, waiters woken by releases
 * over TLS and renewal work, with and without a client certificate; without the bundle
 * the first lock fails fast naming the certificate problem.
 */
class TlsApplicationIntegrationTests {

	// No test waits this long: a waiter that gets the lock sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofSeconds(20);

	private static RedisServer server;

	private static RedisServer mutualServer;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
				DistLockAutoConfiguration.class))
		.withUserConfiguration(PatientWaiterConfiguration.class);

	@BeforeAll
	static void startServers() {
		assumeThat(RedisServer.isTlsSupported()).as("redis-server supports TLS").isTrue();
		server = RedisServer.startTls();
		mutualServer = RedisServer.startTls("--tls-auth-clients", "yes");
	}

	@AfterAll
	static void closeServers() {
		if (server != null) {
			server.close();
		}
		if (mutualServer != null) {
			mutualServer.close();
		}
	}

	private ApplicationContextRunner applicationOn(RedisServer redis, String... properties) {
		return this.contextRunner
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=1s",
					"spring.data.redis.ssl.enabled=true")
			.withPropertyValues(properties);
	}

	@Test
	void applicationTrustingTheTestCaLocksWaitsAndRenews() {
		applicationOn(server, "spring.data.redis.ssl.bundle=redis",
				"spring.ssl.bundle.pem.redis.truststore.certificate=classpath:" + TestCertificates.CA_CERTIFICATE)
			.run((context) -> exerciseLocks(context.getBean(LockTemplate.class), server));
	}

	@Test
	void applicationPresentingTheClientCertificateLocksWaitsAndRenewsOnAServerThatRequiresIt() {
		applicationOn(mutualServer, "spring.data.redis.ssl.bundle=redis",
				"spring.ssl.bundle.pem.redis.truststore.certificate=classpath:" + TestCertificates.CA_CERTIFICATE,
				"spring.ssl.bundle.pem.redis.keystore.certificate=classpath:" + TestCertificates.CLIENT_CERTIFICATE,
				"spring.ssl.bundle.pem.redis.keystore.private-key=classpath:" + TestCertificates.CLIENT_KEY)
			.run((context) -> exerciseLocks(context.getBean(LockTemplate.class), mutualServer));
	}

	@Test
	void applicationWithoutTheBundleStartsButItsFirstLockFailsFastNamingTheCertificateProblem() {
		applicationOn(server).run((context) -> {
			assertThat(context).hasNotFailed();
			LockTemplate template = context.getBean(LockTemplate.class);
			long start = System.nanoTime();
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> template.tryAcquire("k", Duration.ofSeconds(10), Duration.ZERO))
				.satisfies((ex) -> assertThat(NestedExceptionUtils.getMostSpecificCause(ex))
					.hasMessageContaining("unable to find valid certification path"));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		});
	}

	private static void exerciseLocks(LockTemplate template, RedisServer redis) throws Exception {
		// Held and released over TLS.
		try (LockHandle handle = template.tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO).orElseThrow()) {
			assertThat(redis.command("EXISTS", "lock:k")).isEqualTo(1L);
			assertThat(template.tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO)).isEmpty();
		}
		assertThat(redis.command("EXISTS", "lock:k")).isEqualTo(0L);
		// A waiter with a long backoff woken by the release notification.
		LockHandle holder = template.tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
		long[] acquiredAt = new long[1];
		CompletableFuture<LockHandle> acquired = new CompletableFuture<>();
		Thread waiting = new Thread(() -> {
			LockHandle handle = template.tryAcquire("k", Duration.ofSeconds(30), LONG_BACKOFF).orElseThrow();
			acquiredAt[0] = System.nanoTime();
			acquired.complete(handle);
		});
		waiting.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> LockSupport.getBlocker(waiting) instanceof LockWaiter.Waiter);
		long releasedAt = System.nanoTime();
		holder.close();
		acquired.get(5, TimeUnit.SECONDS).close();
		assertThat(Duration.ofNanos(acquiredAt[0] - releasedAt)).isLessThan(Duration.ofSeconds(5));
		// Renewed: held four times its ttl without the lease lapsing.
		Duration ttl = Duration.ofSeconds(1);
		try (RespConnection connection = redis.connect(Duration.ofSeconds(1));
				LockHandle handle = template.tryAcquire("renewed", ttl, Duration.ZERO).orElseThrow()) {
			await().during(ttl.multipliedBy(4))
				.atMost(ttl.multipliedBy(6))
				.pollInterval(Duration.ofMillis(50))
				.untilAsserted(() -> assertThat((Long) connection.command("PTTL", "lock:renewed"))
					.as("lease left; %s", template.getEngine().getStatistics())
					.isPositive());
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(template.getEngine().getStatistics().getLost()).isZero();
	}

	@Configuration(proxyBeanMethods = false)
	static class PatientWaiterConfiguration {

		@Bean
		LockWaiter lockWaiter() {
			return new LockWaiter(LONG_BACKOFF, LONG_BACKOFF);
		}

	}

}
