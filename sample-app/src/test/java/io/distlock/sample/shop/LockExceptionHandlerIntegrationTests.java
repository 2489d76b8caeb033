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

package io.distlock.sample.shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.autoconfigure.SpringDataRedisProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for {@link LockExceptionHandler} over HTTP, on a real redis-server
 * that a test can pause: a busy lock answers 409 and a lock store that does not answer
 * 503, both as problem details.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.data.redis.timeout=500ms")
@DirtiesContext
class LockExceptionHandlerIntegrationTests {

	private static final String PROBLEM_JSON = "application/problem+json";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		SpringDataRedisProperties.register(registry, redis);
	}

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private LockTemplate locks;

	@Test
	void purchaseWhoseLockStaysBusyAnswers409() throws Exception {
		// As a stocktake of product 1 on another node would.
		try (LockHandle held = this.locks.tryAcquire("product:1", Duration.ofSeconds(30), Duration.ZERO)
			.orElseThrow()) {
			HttpResponse<String> response = purchase(1);
			System.out.println("POST /products/1/purchase while the lock is busy: " + response.body());
			assertThat(response.statusCode()).isEqualTo(409);
			assertThat(response.headers().firstValue("Content-Type")).hasValue(PROBLEM_JSON);
			assertThat(JsonPath.<String>read(response.body(), "$.type"))
				.isEqualTo(LockExceptionHandler.LOCK_BUSY.toString());
			assertThat(JsonPath.<String>read(response.body(), "$.title")).isEqualTo("Lock busy");
			assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(409);
			assertThat(response.body()).doesNotContain("product:1");
		}
	}

	@Test
	void purchaseWhileRedisDoesNotAnswerAnswers503() throws Exception {
		redis.endpoint().pause();
		HttpResponse<String> response;
		try {
			response = purchase(1);
		}
		finally {
			redis.endpoint().resume();
		}
		System.out.println("POST /products/1/purchase while Redis is paused: " + response.body());
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Content-Type")).hasValue(PROBLEM_JSON);
		assertThat(JsonPath.<String>read(response.body(), "$.type"))
			.isEqualTo(LockExceptionHandler.LOCK_BACKEND_UNAVAILABLE.toString());
		assertThat(JsonPath.<String>read(response.body(), "$.title")).isEqualTo("Lock backend unavailable");
		assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(503);
	}

	private HttpResponse<String> purchase(long productId) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/products/" + productId + "/purchase"))
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
