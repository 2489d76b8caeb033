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

package io.distlock.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.sample.shop.Inventory;
import io.distlock.sample.shop.Purchase;
import io.distlock.sample.shop.Shop;
import io.distlock.sample.shop.StaleFencingTokenException;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The sample runs against the Redis given by the standard {@code spring.data.redis.*}
 * properties, a real redis-server here, as one node or two.
 */
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Test
	void usesTheRedisGivenByUrl() {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.url=" + redis.endpoint().uri())) {
			Purchase purchase = context.getBean(Shop.class).purchase(1);
			assertThat(purchase.fencingToken()).isPositive();
			assertThat(redis.endpoint().command("GET", "shop:product:{1}:stock"))
				.isEqualTo(String.valueOf(purchase.stockLeft()));
		}
	}

	@Test
	void usesTheRedisGivenByHostAndPort() {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.host=" + redis.endpoint().host(),
				"--spring.data.redis.port=" + redis.endpoint().port())) {
			Purchase purchase = context.getBean(Shop.class).purchase(1);
			assertThat(redis.endpoint().command("GET", "shop:product:{1}:stock"))
				.isEqualTo(String.valueOf(purchase.stockLeft()));
		}
	}

	@Test
	void theWriteOfAHolderWhoseLockExpiredIsRejectedOnceTheNextHolderHasWritten() throws InterruptedException {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.url=" + redis.endpoint().uri())) {
			LockTemplate locks = context.getBean(LockTemplate.class);
			Inventory inventory = context.getBean(Inventory.class);
			LockRequest unrenewed = LockRequest.of("product:1", Duration.ofMillis(200), Duration.ZERO)
				.withAutoRenew(false);
			try (LockHandle paused = locks.tryAcquire(unrenewed).orElseThrow()) {
				Thread.sleep(400);
				try (LockHandle next = locks.tryAcquire(unrenewed).orElseThrow()) {
					assertThat(next.fencingToken()).isGreaterThan(paused.fencingToken());
					inventory.writeStock(1, 49, next.fencingToken());
				}
				assertThatExceptionOfType(StaleFencingTokenException.class)
					.isThrownBy(() -> inventory.writeStock(1, 48, paused.fencingToken()));
			}
			assertThat(inventory.get(1).stock()).isEqualTo(49);
			assertThat(inventory.get(1).staleWritesRejected()).isOne();
		}
	}

	@Test
	void actuatorShowsTheStocktakesLockWhileItWorksAndTheHealthOfTheLockBackend() throws Exception {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.url=" + redis.endpoint().uri(),
				"--sample.stocktake-duration=3s")) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
			HttpClient http = HttpClient.newHttpClient();
			CompletableFuture<HttpResponse<String>> stocktake = http
				.sendAsync(HttpRequest.newBuilder(URI.create(base + "/products/1/stocktake"))
					.POST(HttpRequest.BodyPublishers.noBody())
					.build(), HttpResponse.BodyHandlers.ofString());
			String held = awaitHeldLock(http, base, "product:1");
			System.out.println("GET /actuator/locks: " + held);
			assertThat(held).contains("\"autoRenew\":true", "\"mode\":\"EXCLUSIVE\"");
			HttpResponse<String> one = http.send(
					HttpRequest.newBuilder(URI.create(base + "/actuator/locks/product:1")).build(),
					HttpResponse.BodyHandlers.ofString());
			System.out.println("GET /actuator/locks/product:1: " + one.body());
			assertThat(one.body()).contains("\"held\":true");
			// Force-release is off unless enabled.
			HttpResponse<String> delete = http.send(
					HttpRequest.newBuilder(URI.create(base + "/actuator/locks/product:1")).DELETE().build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(delete.statusCode()).isEqualTo(405);
			assertThat(redis.endpoint().command("EXISTS", "lock:product:1")).isEqualTo(1L);

			HttpResponse<String> counted = stocktake.get(30, TimeUnit.SECONDS);
			assertThat(counted.statusCode()).isEqualTo(200);
			long fencingToken = JsonPath.<Number>read(counted.body(), "$.fencingToken").longValue();
			assertThat(held).contains("\"fencingToken\":" + fencingToken);
			assertThat(one.body()).contains("\"lastFencingToken\":" + fencingToken);
			HttpResponse<String> health = http.send(
					HttpRequest.newBuilder(URI.create(base + "/actuator/health")).build(),
					HttpResponse.BodyHandlers.ofString());
			System.out.println("GET /actuator/health: " + health.body());
			assertThat(health.body()).contains("\"distlock\":{", "\"backend\":\"redis\"");
		}
	}

	@Test
	void givenTwoNodesThenTheScheduledStockReportRunsOncePerInterval(CapturedOutput output) throws Exception {
		String[] settings = { "--spring.data.redis.url=" + redis.endpoint().uri(), "--sample.report-interval=300ms",
				"--sample.report-min-hold=250ms" };
		try (ConfigurableApplicationContext first = run(settings);
				ConfigurableApplicationContext second = run(settings)) {
			// Counted from when both nodes run: the first one reported alone before.
			int before = reports(output);
			long start = System.nanoTime();
			Thread.sleep(3000);
			int runs = reports(output) - before;
			long intervals = (System.nanoTime() - start) / 300_000_000L;

			// Both nodes fire every interval; one runs the report, the other skips it.
			assertThat(runs).isBetween((int) intervals - 2, (int) intervals + 2);
		}
	}

	// The reports both nodes logged so far.
	private static int reports(CapturedOutput output) {
		return output.getOut().split("Stock report by node ", -1).length - 1;
	}

	// The answer of the locks endpoint once it lists the given key as held.
	private static String awaitHeldLock(HttpClient http, String base, String key) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			String body = http
				.send(HttpRequest.newBuilder(URI.create(base + "/actuator/locks")).build(),
						HttpResponse.BodyHandlers.ofString())
				.body();
			// Held, not only waited for: the key is also listed among the waiters.
			List<?> held = JsonPath.read(body, "$.locks[?(@.key == '" + key + "')]");
			if (!held.isEmpty()) {
				return body;
			}
			assertThat(System.nanoTime() - deadline).as("the locks endpoint listed %s; last answer %s", key, body)
				.isNegative();
			Thread.sleep(50);
		}
	}

	private static ConfigurableApplicationContext run(String... args) {
		String[] arguments = new String[args.length + 1];
		arguments[0] = "--server.port=0";
		System.arraycopy(args, 0, arguments, 1, args.length);
		return SpringApplication.run(SampleApplication.class, arguments);
	}

}
