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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code distlock} health contributor as an operator sees it: under
 * {@code components.distlock} of {@code /actuator/health}, over HTTP, on a real
 * redis-server that is stopped and started again.
 */
class DistLockHealthEndpointIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(1);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void actuatorHealthShowsDistlockUpThenDownWhileRedisIsStopped() throws Exception {
		RedisServer server = redis.server(0);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "spring.data.redis.timeout=500ms",
					"management.endpoint.health.show-details=always")
			.run()) {
			URI health = URI.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port")
					+ "/actuator/health");
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				HttpResponse<String> response = get(health);
				DocumentContext json = JsonPath.parse(response.body());
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(json.read("$.components.distlock.status", String.class)).isEqualTo("UP");
				assertThat(json.read("$.components.distlock.details.backend", String.class)).isEqualTo("redis");
				assertThat(json.read("$.components.distlock.details.releaseSubscription", String.class))
					.isEqualTo("connected");
			});
			server.kill();
			HttpResponse<String> down = get(health);
			assertThat(down.statusCode()).isEqualTo(503);
			assertThat(JsonPath.parse(down.body()).read("$.components.distlock.status", String.class))
				.isEqualTo("DOWN");
		}
	}

	private HttpResponse<String> get(URI uri) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	// Spring Security is on the test class path (OperationsSnippetIntegrationTests): this
	// application is left unsecured, as one without it.
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	static class HealthApplication {

	}

}
