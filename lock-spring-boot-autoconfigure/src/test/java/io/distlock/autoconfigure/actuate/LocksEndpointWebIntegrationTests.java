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

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.store.LockClient;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code locks} endpoint as an operator reaches it, over HTTP, on a real
 * redis-server: which lock keys it shows to whom
 * ({@code management.endpoint.locks.show-values}), whether it force-releases a lock
 * ({@code management.endpoint.locks.access}, read-only by default), and what it refuses
 * when the key prefix is empty.
 */
class LocksEndpointWebIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	/**
	 * The header the test authentication filter reads: {@code name:ROLE}.
	 */
	private static final String TEST_USER = "X-Test-User";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void keysAreMaskedByDefaultWhileNamesTokensAndStateAreShown() throws Exception {
		withApplication((app) -> {
			try (LockHandle held = app.locks()
				.tryAcquire(LockRequest.of("customer:alice", TTL, Duration.ZERO).withName("checkout"))
				.orElseThrow()) {
				DocumentContext list = app.getJson("/actuator/locks", null);
				assertThat(list.read("$.locks[0].key", String.class)).isEqualTo("******");
				assertThat(list.read("$.locks[0].name", String.class)).isEqualTo("checkout");
				assertThat(list.read("$.locks[0].fencingToken", Long.class)).isEqualTo(held.fencingToken());
				assertThat(list.read("$.locks[0].mode", String.class)).isEqualTo("EXCLUSIVE");
				assertThat(list.jsonString()).doesNotContain("alice");
				DocumentContext one = app.getJson("/actuator/locks/customer:alice", null);
				assertThat(one.read("$.key", String.class)).isEqualTo("******");
				assertThat(one.read("$.held", Boolean.class)).isTrue();
				assertThat(one.read("$.lastFencingToken", Long.class)).isEqualTo(held.fencingToken());
			}
		});
	}

	@Test
	void keysAreShownOnlyToAnAuthenticatedUserInOneOfTheRolesWhenAuthorized() throws Exception {
		withApplication((app) -> {
			try (LockHandle held = app.locks().tryAcquire("customer:bob", TTL, Duration.ZERO).orElseThrow()) {
				assertThat(app.getJson("/actuator/locks", "ops:ACTUATOR").read("$.locks[0].key", String.class))
					.isEqualTo("customer:bob");
				assertThat(app.getJson("/actuator/locks/customer:bob", "ops:ACTUATOR").read("$.key", String.class))
					.isEqualTo("customer:bob");
				assertThat(app.getJson("/actuator/locks", "guest:VIEWER").read("$.locks[0].key", String.class))
					.isEqualTo("******");
				assertThat(app.getJson("/actuator/locks", null).read("$.locks[0].key", String.class))
					.isEqualTo("******");
			}
		}, "management.endpoint.locks.show-values=when-authorized", "management.endpoint.locks.roles=ACTUATOR");
	}

	@Test
	void givenTheDefaultReadOnlyAccessThenGetAnswersAndDeleteIsRefusedLeavingTheLockHeld() throws Exception {
		withApplication((app) -> {
			try (LockHandle held = app.locks().tryAcquire("stuck:1", TTL, Duration.ZERO).orElseThrow()) {
				assertThat(app.getJson("/actuator/locks", null).read("$.locks[0].fencingToken", Long.class))
					.isEqualTo(held.fencingToken());
				assertThat(app.getJson("/actuator/locks/stuck:1", null).read("$.held", Boolean.class)).isTrue();
				HttpResponse<String> release = app.send(app.request("/actuator/locks/stuck:1", null).DELETE());
				assertThat(release.statusCode()).as(release.body()).isIn(404, 405);
				assertThat(redis.endpoint().command("EXISTS", "lock:stuck:1")).isEqualTo(1L);
			}
		});
	}

	@Test
	void givenUnrestrictedAccessThenDeleteForceReleasesTheLock() throws Exception {
		withApplication((app) -> {
			try (LockHandle held = app.locks().tryAcquire("stuck:2", TTL, Duration.ZERO).orElseThrow()) {
				assertForceReleased(app, "stuck:2");
			}
		}, "management.endpoint.locks.access=unrestricted");
	}

	@Test
	void givenTheDeprecatedForceReleaseEnabledAndNoAccessPropertyThenDeleteForceReleasesTheLock() throws Exception {
		withApplication((app) -> {
			try (LockHandle held = app.locks().tryAcquire("stuck:3", TTL, Duration.ZERO).orElseThrow()) {
				assertForceReleased(app, "stuck:3");
			}
		}, "distlock.actuator.force-release-enabled=true");
	}

	@Test
	void givenTheAccessPropertyAndTheDeprecatedForceReleaseEnabledThenTheAccessPropertyDecides() throws Exception {
		withApplication((app) -> {
			try (LockHandle held = app.locks().tryAcquire("stuck:4", TTL, Duration.ZERO).orElseThrow()) {
				HttpResponse<String> release = app.send(app.request("/actuator/locks/stuck:4", null).DELETE());
				assertThat(release.statusCode()).as(release.body()).isIn(404, 405);
				assertThat(redis.endpoint().command("EXISTS", "lock:stuck:4")).isEqualTo(1L);
			}
		}, "management.endpoint.locks.access=read-only", "distlock.actuator.force-release-enabled=true");
	}

	@Test
	void givenAnEmptyKeyPrefixThenInspectionAndForceReleaseAreRefusedAndNoRedisKeyIsTouched() throws Exception {
		redis.endpoint().command("HSET", "cart:alice", "espresso-machine", "1");
		withApplication((app) -> {
			HttpResponse<String> inspect = app.send(app.request("/actuator/locks/cart:alice", null).GET());
			assertThat(inspect.statusCode()).isEqualTo(403);
			assertThat(JsonPath.parse(inspect.body()).read("$.message", String.class))
				.contains("key prefix is empty (distlock.key-prefix");
			assertThat(inspect.body()).doesNotContain("held", "remainingLease");
			HttpResponse<String> release = app.send(app.request("/actuator/locks/cart:alice", null).DELETE());
			assertThat(release.statusCode()).isEqualTo(403);
			assertThat(JsonPath.parse(release.body()).read("$.message", String.class))
				.contains("key prefix is empty (distlock.key-prefix");
			assertThat(redis.endpoint().command("HGET", "cart:alice", "espresso-machine")).isEqualTo("1");
		}, "distlock.key-prefix=", "management.endpoint.locks.access=unrestricted",
				"management.endpoint.locks.show-values=always");
	}

	@Test
	void givenAUserTemplateWithAnEmptyKeyPrefixThenInspectionAndForceReleaseAreRefusedWhateverTheProperty()
			throws Exception {
		redis.endpoint().command("HSET", "cart:bob", "espresso-machine", "1");
		withApplication(EmptyPrefixTemplateApplication.class, (app) -> {
			assertThat(app.locks().getSettings().getKeyPrefix()).isEmpty();
			HttpResponse<String> inspect = app.send(app.request("/actuator/locks/cart:bob", null).GET());
			assertThat(inspect.statusCode()).as(inspect.body()).isEqualTo(403);
			assertThat(JsonPath.parse(inspect.body()).read("$.message", String.class)).contains("key prefix is empty");
			HttpResponse<String> release = app.send(app.request("/actuator/locks/cart:bob", null).DELETE());
			assertThat(release.statusCode()).as(release.body()).isEqualTo(403);
			assertThat(redis.endpoint().command("HGET", "cart:bob", "espresso-machine")).isEqualTo("1");
		}, "management.endpoint.locks.access=unrestricted", "management.endpoint.locks.show-values=always");
	}

	@Test
	void anEmptyKeyIsABadRequestThatAsksNoStore() throws Exception {
		withApplication((app) -> {
			for (String path : List.of("/actuator/locks/", "/actuator/locks//")) {
				HttpResponse<String> inspect = app.send(app.request(path, null).GET());
				assertThat(inspect.statusCode()).as(path + ": " + inspect.body()).isEqualTo(400);
				assertThat(JsonPath.parse(inspect.body()).read("$.message", String.class))
					.contains("key must not be empty");
				HttpResponse<String> release = app.send(app.request(path, null).DELETE());
				assertThat(release.statusCode()).as(path + ": " + release.body()).isEqualTo(400);
			}
		}, "management.endpoint.locks.access=unrestricted");
	}

	private static void assertForceReleased(App app, String key) throws Exception {
		HttpResponse<String> release = app.send(app.request("/actuator/locks/" + key, null).DELETE());
		assertThat(release.statusCode()).as(release.body()).isEqualTo(200);
		assertThat(JsonPath.parse(release.body()).read("$.released", Boolean.class)).isTrue();
		assertThat(redis.endpoint().command("EXISTS", "lock:" + key)).isEqualTo(0L);
	}

	private void withApplication(ApplicationCheck check, String... properties) throws Exception {
		withApplication(LocksApplication.class, check, properties);
	}

	private void withApplication(Class<?> application, ApplicationCheck check, String... properties) throws Exception {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(),
				"management.endpoints.web.exposure.include=locks"));
		all.addAll(List.of(properties));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
			.properties(all.toArray(String[]::new))
			.run()) {
			check.accept(new App(context));
		}
	}

	interface ApplicationCheck {

		void accept(App app) throws Exception;

	}

	final class App {

		private final ConfigurableApplicationContext context;

		App(ConfigurableApplicationContext context) {
			this.context = context;
		}

		LockTemplate locks() {
			return this.context.getBean(LockTemplate.class);
		}

		HttpRequest.Builder request(String path, @Nullable String user) {
			HttpRequest.Builder request = HttpRequest
				.newBuilder(URI.create(
						"http://localhost:" + this.context.getEnvironment().getProperty("local.server.port") + path))
				.timeout(Duration.ofSeconds(10));
			return (user != null) ? request.header(TEST_USER, user) : request;
		}

		HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
			return LocksEndpointWebIntegrationTests.this.http.send(request.build(),
					HttpResponse.BodyHandlers.ofString());
		}

		DocumentContext getJson(String path, @Nullable String user) throws IOException, InterruptedException {
			HttpResponse<String> response = send(request(path, user).GET());
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			return JsonPath.parse(response.body());
		}

	}

	// Spring Security is on the test class path (OperationsSnippetIntegrationTests): this
	// application is left unsecured, as one without it.
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	static class LocksApplication {

		/**
		 * Authenticates a request as the servlet container would: a principal and its
		 * role, taken here from a test header.
		 */
		@Bean
		Filter testAuthentication() {
			return (request, response, chain) -> {
				String user = ((HttpServletRequest) request).getHeader(TEST_USER);
				chain.doFilter((user != null) ? new AuthenticatedRequest((HttpServletRequest) request, user) : request,
						response);
			};
		}

	}

	/**
	 * An application that declares its own template, with an empty key prefix, and leaves
	 * {@code distlock.key-prefix} at its default.
	 */
	// Spring Security is on the test class path (OperationsSnippetIntegrationTests): this
	// application is left unsecured, as one without it.
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	static class EmptyPrefixTemplateApplication {

		@Bean
		LockEngine lockEngine(LockClient lockClient) {
			return new LockEngine(lockClient, new LockWaiter(Duration.ofMillis(500)),
					LockSettings.builder().keyPrefix("").build());
		}

	}

	static final class AuthenticatedRequest extends HttpServletRequestWrapper {

		private final String name;

		private final String role;

		AuthenticatedRequest(HttpServletRequest request, String user) {
			super(request);
			this.name = user.substring(0, user.indexOf(':'));
			this.role = user.substring(user.indexOf(':') + 1);
		}

		@Override
		public Principal getUserPrincipal() {
			return () -> this.name;
		}

		@Override
		public boolean isUserInRole(String role) {
			return this.role.equals(role);
		}

	}

}
