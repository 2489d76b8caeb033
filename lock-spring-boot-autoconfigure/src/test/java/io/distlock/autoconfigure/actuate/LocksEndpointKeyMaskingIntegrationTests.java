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

import java.security.Principal;
import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.autoconfigure.actuate.ForceReleasingLocksEndpoint.ForceReleaseDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint.HeldLockDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint.LockStateDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint.RefusalDescriptor;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for which lock keys the {@code locks} endpoint shows to whom
 * ({@code management.endpoint.locks.show-values} and {@code .roles}), and for what it
 * refuses when the key prefix is empty, on a real redis-server.
 */
class LocksEndpointKeyMaskingIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final String MASKED = "******";

	private static final SecurityContext OPERATOR = new User("operator", Set.of("ACTUATOR"));

	private static final SecurityContext GUEST = new User("guest", Set.of("VIEWER"));

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockEndpointAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(), "management.endpoints.web.exposure.include=locks");

	@Test
	void showValuesDefaultsToNeverAndRolesToNone() {
		this.contextRunner.run((context) -> {
			LocksEndpointProperties properties = context.getBean(LocksEndpointProperties.class);
			assertThat(properties.getShowValues()).isEqualTo(Show.NEVER);
			assertThat(properties.getRoles()).isEmpty();
		});
	}

	@Test
	void keysAreMaskedByDefaultEvenForAnAuthenticatedUserWhileEverythingElseIsShown() {
		this.contextRunner.run((context) -> withHeldLock(context, (endpoint, held) -> {
			HeldLockDescriptor listed = endpoint.locks(OPERATOR).locks().get(0);
			assertThat(listed.key()).isEqualTo(MASKED);
			assertThat(listed.name()).isEqualTo("checkout");
			assertThat(listed.fencingToken()).isEqualTo(held.fencingToken());
			assertThat(listed.acquiredAt()).isNotNull();
			assertThat(listed.heldFor()).isNotNull();
			assertThat(listed.leaseRemaining()).isPositive();
			assertThat(listed.permits()).isEqualTo(1);
			LockStateDescriptor state = state(endpoint, OPERATOR);
			assertThat(state.key()).isEqualTo(MASKED);
			assertThat(state.held()).isTrue();
			assertThat(state.lastFencingToken()).isEqualTo(held.fencingToken());
			assertThat(forceRelease(endpoint, OPERATOR)).isEqualTo(new ForceReleaseDescriptor(MASKED, true));
		}));
	}

	@Test
	void keysAreShownToAnyoneWhenAlways() {
		this.contextRunner.withPropertyValues("management.endpoint.locks.show-values=always")
			.run((context) -> withHeldLock(context, (endpoint, held) -> {
				assertThat(endpoint.locks(SecurityContext.NONE).locks().get(0).key()).isEqualTo("customer:alice");
				assertThat(state(endpoint, SecurityContext.NONE).key()).isEqualTo("customer:alice");
				assertThat(forceRelease(endpoint, SecurityContext.NONE))
					.isEqualTo(new ForceReleaseDescriptor("customer:alice", true));
			}));
	}

	@Test
	void keysAreMaskedWithoutAnAuthenticatedUserWhenAuthorized() {
		this.contextRunner.withPropertyValues("management.endpoint.locks.show-values=when-authorized")
			.run((context) -> withHeldLock(context, (endpoint, held) -> {
				assertThat(endpoint.locks(SecurityContext.NONE).locks().get(0).key()).isEqualTo(MASKED);
				assertThat(state(endpoint, SecurityContext.NONE).key()).isEqualTo(MASKED);
				assertThat(forceRelease(endpoint, SecurityContext.NONE).key()).isEqualTo(MASKED);
			}));
	}

	@Test
	void keysAreShownToAnyAuthenticatedUserWhenAuthorizedWithoutRoles() {
		this.contextRunner.withPropertyValues("management.endpoint.locks.show-values=when-authorized")
			.run((context) -> withHeldLock(context, (endpoint, held) -> {
				assertThat(endpoint.locks(GUEST).locks().get(0).key()).isEqualTo("customer:alice");
				assertThat(state(endpoint, GUEST).key()).isEqualTo("customer:alice");
				assertThat(forceRelease(endpoint, GUEST).key()).isEqualTo("customer:alice");
			}));
	}

	@Test
	void keysAreShownOnlyToAUserInOneOfTheRolesWhenAuthorizedWithRoles() {
		this.contextRunner
			.withPropertyValues("management.endpoint.locks.show-values=when-authorized",
					"management.endpoint.locks.roles=ADMIN,ACTUATOR")
			.run((context) -> withHeldLock(context, (endpoint, held) -> {
				assertThat(endpoint.locks(GUEST).locks().get(0).key()).isEqualTo(MASKED);
				assertThat(state(endpoint, GUEST).key()).isEqualTo(MASKED);
				assertThat(endpoint.locks(OPERATOR).locks().get(0).key()).isEqualTo("customer:alice");
				assertThat(state(endpoint, OPERATOR).key()).isEqualTo("customer:alice");
				assertThat(forceRelease(endpoint, OPERATOR).key()).isEqualTo("customer:alice");
			}));
	}

	@Test
	void givenAnEmptyKeyPrefixThenInspectionIsRefusedWithoutAskingTheStore() {
		redis.endpoint().command("SET", "cart:alice", "espresso-machine");
		this.contextRunner.withPropertyValues("distlock.key-prefix=", "management.endpoint.locks.show-values=always")
			.run((context) -> {
				WebEndpointResponse<?> response = context.getBean(LocksEndpoint.class)
					.lock(SecurityContext.NONE, new String[] { "cart:alice" });
				assertThat(response.getStatus()).isEqualTo(403);
				assertThat(response.getBody()).isInstanceOfSatisfying(RefusalDescriptor.class,
						(refusal) -> assertThat(refusal.message())
							.isEqualTo("Refused to inspect a lock: the lock engine's key prefix is empty "
									+ "(distlock.key-prefix, or LockSettings.Builder.keyPrefix of an engine of the "
									+ "application's own), so a key could name any Redis key, not only a lock's. "
									+ "Set a key prefix to inspect a lock through this endpoint."));
				assertThat(refusal(response)).doesNotContain("cart:alice");
			});
	}

	@Test
	void givenAnEmptyKeyPrefixThenForceReleaseIsRefusedAndDeletesNothing() {
		redis.endpoint().command("SET", "cart:alice", "espresso-machine");
		this.contextRunner.withPropertyValues("distlock.key-prefix=").run((context) -> {
			ForceReleasingLocksEndpoint endpoint = context.getBean(ForceReleasingLocksEndpoint.class);
			try (LockHandle held = context.getBean(LockTemplate.class)
				.tryAcquire("order:7", TTL, Duration.ZERO)
				.orElseThrow()) {
				for (String key : new String[] { "cart:alice", "order:7" }) {
					WebEndpointResponse<?> response = endpoint.forceRelease(SecurityContext.NONE, new String[] { key });
					assertThat(response.getStatus()).isEqualTo(403);
					assertThat(refusal(response)).startsWith("Refused to force-release a lock: ")
						.contains("key prefix is empty");
				}
				assertThat(redis.endpoint().command("GET", "cart:alice")).isEqualTo("espresso-machine");
				assertThat(redis.endpoint().command("EXISTS", "order:7")).isEqualTo(1L);
				assertThat(endpoint.locks(SecurityContext.NONE).locks()).extracting(HeldLockDescriptor::fencingToken)
					.as("the list of held locks, which asks no store, still answers")
					.containsExactly(held.fencingToken());
			}
		});
	}

	private static void withHeldLock(AssertableApplicationContext context, HeldLockCheck check) throws Exception {
		ForceReleasingLocksEndpoint endpoint = context.getBean(ForceReleasingLocksEndpoint.class);
		try (LockHandle held = context.getBean(LockTemplate.class)
			.tryAcquire(LockRequest.of("customer:alice", TTL, Duration.ZERO).withName("checkout"))
			.orElseThrow()) {
			check.check(endpoint, held);
		}
	}

	private static LockStateDescriptor state(LocksEndpoint endpoint, SecurityContext caller) {
		WebEndpointResponse<?> response = endpoint.lock(caller, new String[] { "customer:alice" });
		assertThat(response.getStatus()).isEqualTo(WebEndpointResponse.STATUS_OK);
		return (LockStateDescriptor) response.getBody();
	}

	private static ForceReleaseDescriptor forceRelease(ForceReleasingLocksEndpoint endpoint, SecurityContext caller) {
		WebEndpointResponse<?> response = endpoint.forceRelease(caller, new String[] { "customer:alice" });
		assertThat(response.getStatus()).isEqualTo(WebEndpointResponse.STATUS_OK);
		return (ForceReleaseDescriptor) response.getBody();
	}

	private static String refusal(WebEndpointResponse<?> response) {
		return ((RefusalDescriptor) response.getBody()).message();
	}

	interface HeldLockCheck {

		void check(ForceReleasingLocksEndpoint endpoint, LockHandle held) throws Exception;

	}

	/**
	 * An authenticated user with roles, as the web layer describes the caller.
	 */
	record User(String name, Set<String> roles) implements SecurityContext {

		@Override
		public @Nullable Principal getPrincipal() {
			return this::name;
		}

		@Override
		public boolean isUserInRole(String role) {
			return this.roles.contains(role);
		}

	}

}
