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

package io.distlock.autoconfigure.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockAcquisitionException;
import io.distlock.annotation.DistributedLocked;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Two applications on one real Redis, end to end over HTTP: while the first holds a lock
 * in an annotated method, the second's {@code GET /actuator/locks/{key}} names the first
 * as holder (instance, thread and method), the second's busy exception names the first
 * instance, and the second's waiting callers are counted by the
 * {@code distlock_lock_waiting} gauge of its Prometheus scrape and listed by its
 * {@code GET /actuator/locks} until they have the lock, when the gauge returns to 0.
 */
@Timeout(120)
class LocksEndpointTwoApplicationsIntegrationTests {

	private static final Pattern WAITING = Pattern.compile(
			"^distlock_lock_waiting\\{[^}]*distlock_lock_name=\"[^\"]*Checkout.payWhenFree\"[^}]*\\} (\\S+)$",
			Pattern.MULTILINE);

	// The lock name of Checkout.pay: the annotated method, named by its class's short
	// name.
	private static final String PAY = "LocksEndpointTwoApplicationsIntegrationTests.Checkout.pay";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ExecutorService checkoutWorker = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task);
		thread.setName("checkout-worker");
		return thread;
	});

	private final ExecutorService waiters = Executors.newFixedThreadPool(2);

	@AfterEach
	void stopThreads() {
		this.checkoutWorker.shutdownNow();
		this.waiters.shutdownNow();
	}

	@Test
	void secondApplicationSeesTheFirstAsHolderIsToldWhoHoldsItAndCountsItsWaitersBackToZero() throws Exception {
		try (ConfigurableApplicationContext first = start("orders-1");
				ConfigurableApplicationContext second = start("orders-2")) {
			Checkout firstCheckout = first.getBean(Checkout.class);
			Checkout secondCheckout = second.getBean(Checkout.class);
			Future<String> paying = this.checkoutWorker.submit(() -> firstCheckout.pay("42"));
			assertThat(firstCheckout.awaitHolding()).isTrue();

			DocumentContext lock = getJson(second, "/actuator/locks/order:42");
			assertThat(lock.read("$.held", Boolean.class)).isTrue();
			assertThat(lock.read("$.holder.kind", String.class)).isEqualTo("exclusive");
			assertThat(lock.read("$.holder.instance", String.class)).isEqualTo("orders-1");
			assertThat(lock.read("$.holder.thread", String.class)).isEqualTo("checkout-worker");
			assertThat(lock.read("$.holder.name", String.class)).isEqualTo(PAY);
			assertThat(lock.read("$.holder.acquiredAt", String.class)).isNotBlank();
			assertThat(lock.read("$.holders.length()", Integer.class)).isOne();
			assertThat(lock.jsonString()).doesNotContain(secret("lock:order:42"));

			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> secondCheckout.pay("42"))
				.satisfies((busy) -> {
					assertThat(busy.getHolder().instance()).isEqualTo("orders-1");
					assertThat(busy.getMessage()).contains("Lock 'order:42' of " + PAY,
							"held by instance 'orders-1', thread 'checkout-worker' for " + PAY);
				});

			List<CompletableFuture<String>> waiting = List.of(
					CompletableFuture.supplyAsync(() -> secondCheckout.payWhenFree("42"), this.waiters),
					CompletableFuture.supplyAsync(() -> secondCheckout.payWhenFree("42"), this.waiters));
			await().atMost(Duration.ofSeconds(20)).until(() -> waitingGauge(second) == 2.0);
			DocumentContext locks = getJson(second, "/actuator/locks");
			assertThat(locks.read("$.instance", String.class)).isEqualTo("orders-2");
			assertThat(locks.read("$.waiters.length()", Integer.class)).isEqualTo(2);
			assertThat(locks.read("$.waiters[*].name", List.class)).containsOnly(PAY + "WhenFree");

			firstCheckout.letGo();
			assertThat(paying.get(10, TimeUnit.SECONDS)).isEqualTo("paid");
			for (CompletableFuture<String> waiter : waiting) {
				assertThat(waiter.get(20, TimeUnit.SECONDS)).isEqualTo("paid when free");
			}
			assertThat(waitingGauge(second)).isZero();
			assertThat(getJson(second, "/actuator/locks/order:42").read("$.holders.length()", Integer.class)).isZero();
		}
	}

	private static ConfigurableApplicationContext start(String instance) {
		return new SpringApplicationBuilder(CheckoutApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "distlock.instance-name=" + instance,
					"management.endpoints.web.exposure.include=locks,prometheus",
					"management.endpoint.locks.show-values=always")
			.run();
	}

	private double waitingGauge(ConfigurableApplicationContext context) throws Exception {
		Matcher gauge = WAITING.matcher(get(context, "/actuator/prometheus"));
		return gauge.find() ? Double.parseDouble(gauge.group(1)) : -1;
	}

	private DocumentContext getJson(ConfigurableApplicationContext context, String path) throws Exception {
		return JsonPath.parse(get(context, path));
	}

	private String get(ConfigurableApplicationContext context, String path) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest
			.newBuilder(
					URI.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port") + path))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return response.body();
	}

	// The owner's secret: what comes before the holder's description in the lock key.
	private static String secret(String lockKey) {
		String stored = (String) redis.endpoint().command("GET", lockKey);
		return stored.substring(0, stored.indexOf('\u001F'));
	}

	// Spring Security is on the test class path (OperationsSnippetIntegrationTests): this
	// application is left unsecured, as one without it.
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	static class CheckoutApplication {

		@Bean
		Checkout checkout() {
			return new Checkout();
		}

	}

	static class Checkout {

		// Reached through methods: the test holds the proxy, whose fields are not set.
		private final CountDownLatch holding = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		public boolean awaitHolding() throws InterruptedException {
			return this.holding.await(10, TimeUnit.SECONDS);
		}

		public void letGo() {
			this.release.countDown();
		}

		@DistributedLocked(key = "'order:' + #orderId", ttl = "30s")
		public String pay(String orderId) throws InterruptedException {
			this.holding.countDown();
			this.release.await(60, TimeUnit.SECONDS);
			return "paid";
		}

		@DistributedLocked(key = "'order:' + #orderId", ttl = "30s", waitTime = "30s")
		public String payWhenFree(String orderId) {
			return "paid when free";
		}

	}

}
