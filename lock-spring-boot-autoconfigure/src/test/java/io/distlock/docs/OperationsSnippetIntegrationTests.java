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

package io.distlock.docs;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

import com.jayway.jsonpath.JsonPath;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/operations.md's first snippets as copied, {@code actuator.yml} and
 * {@link ActuatorSecurity}, in a web application on a real redis-server: force release
 * only for an operator (role {@code OPS}), the rest of the {@code locks} endpoint only
 * for an authenticated user, and the {@code distlock} health component shown to anyone.
 */
class OperationsSnippetIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private ConfigurableApplicationContext context;

	@BeforeEach
	void start() {
		this.context = new SpringApplicationBuilder(OperatedApplication.class)
			.properties("spring.config.import=classpath:io/distlock/docs/actuator.yml",
					"spring.application.name=orders", "server.port=0",
					"spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port())
			.run();
	}

	@AfterEach
	void stop() {
		this.context.close();
	}

	@Test
	void forceReleaseWithoutCredentialsIsUnauthorizedAndLeavesTheLockHeld() throws Exception {
		try (LockHandle held = locks().tryAcquire("order:1", TTL, Duration.ZERO).orElseThrow()) {
			HttpResponse<String> release = send("DELETE", "/actuator/locks/order:1", null);
			assertThat(release.statusCode()).as(release.body()).isEqualTo(401);
			assertThat(redis.endpoint().command("EXISTS", "lock:order:1")).isEqualTo(1L);
			assertThat(held.isHeld()).isTrue();
		}
	}

	@Test
	void forceReleaseByAUserWithoutTheOpsRoleIsForbiddenAndLeavesTheLockHeld() throws Exception {
		try (LockHandle held = locks().tryAcquire("order:2", TTL, Duration.ZERO).orElseThrow()) {
			HttpResponse<String> release = send("DELETE", "/actuator/locks/order:2", "viewer");
			assertThat(release.statusCode()).as(release.body()).isEqualTo(403);
			assertThat(redis.endpoint().command("EXISTS", "lock:order:2")).isEqualTo(1L);
			HttpResponse<String> list = send("GET", "/actuator/locks", "viewer");
			assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
			assertThat(JsonPath.parse(list.body()).read("$.locks[0].key", String.class)).isEqualTo("******");
		}
	}

	@Test
	void forceReleaseByAnOperatorReleasesTheLock() throws Exception {
		try (LockHandle held = locks().tryAcquire("order:3", TTL, Duration.ZERO).orElseThrow()) {
			HttpResponse<String> release = send("DELETE", "/actuator/locks/order:3", "ops");
			assertThat(release.statusCode()).as(release.body()).isEqualTo(200);
			assertThat(JsonPath.parse(release.body()).read("$.released", Boolean.class)).isTrue();
			assertThat(JsonPath.parse(release.body()).read("$.key", String.class)).isEqualTo("order:3");
			assertThat(redis.endpoint().command("EXISTS", "lock:order:3")).isEqualTo(0L);
		}
	}

	@Test
	void theLocksEndpointAsksForCredentials() throws Exception {
		assertThat(send("GET", "/actuator/locks", null).statusCode()).isEqualTo(401);
		assertThat(send("GET", "/actuator/locks/order:4", null).statusCode()).isEqualTo(401);
	}

	@Test
	void theDistlockHealthComponentIsShownToAnyoneAndItsDetailsToAnOperator() throws Exception {
		HttpResponse<String> anonymous = send("GET", "/actuator/health/distlock", null);
		assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(200);
		assertThat(JsonPath.parse(anonymous.body()).read("$.status", String.class)).isEqualTo("UP");
		assertThat(anonymous.body()).doesNotContain("details");
		HttpResponse<String> operator = send("GET", "/actuator/health", "ops");
		assertThat(operator.statusCode()).as(operator.body()).isEqualTo(200);
		assertThat(JsonPath.parse(operator.body()).read("$.components.distlock.details.backend", String.class))
			.isEqualTo("redis");
	}

	private LockTemplate locks() {
		return this.context.getBean(LockTemplate.class);
	}

	private HttpResponse<String> send(String method, String path, @Nullable String user) throws Exception {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI
				.create("http://localhost:" + this.context.getEnvironment().getProperty("local.server.port") + path))
			.timeout(Duration.ofSeconds(10))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (user != null) {
			String credentials = user + ":" + user + "-password";
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(ActuatorSecurity.class)
	static class OperatedApplication {

		// The test's users: an operator, and a user without the role OPS.
		@Bean
		UserDetailsService users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ops").password("{noop}ops-password").roles("OPS").build(),
					User.withUsername("viewer").password("{noop}viewer-password").roles("VIEWER").build());
		}

	}

}
