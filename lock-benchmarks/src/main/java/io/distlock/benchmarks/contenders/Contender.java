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

package io.distlock.benchmarks.contenders;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * The contenders, in the order the report lists them. Those of the published comparison
 * run in every step; a variant added to answer one question runs only in the steps that
 * ask it ({@link #runsIn(String)}).
 */
public enum Contender {

	/**
	 * Raw Lettuce, one connection, SET NX PX and EVALSHA compare-and-delete.
	 */
	LETTUCE_FLOOR("lettuce-floor", "floor: raw Lettuce", LettuceFloorContender::new),

	/**
	 * distlock's {@code LockTemplate}.
	 */
	DISTLOCK_TEMPLATE("distlock-template", "distlock LockTemplate",
			(address) -> new DistlockTemplateContender(address, true)),

	/**
	 * distlock's {@code LockTemplate} with {@code withAutoRenew(false)}: the like of
	 * {@link #DISTLOCK_ANNOTATION_NO_RENEW}.
	 */
	DISTLOCK_TEMPLATE_NO_RENEW("distlock-template-no-renew", "distlock LockTemplate, withAutoRenew(false)",
			(address) -> new DistlockTemplateContender(address, false), Steps.MAIN_REDIS),

	/**
	 * distlock's {@code @DistributedLocked}.
	 */
	DISTLOCK_ANNOTATION("distlock-annotation", "distlock @DistributedLocked",
			(address) -> new DistlockAnnotationContender(address, true)),

	/**
	 * distlock's {@code @DistributedLocked(autoRenew = false)}.
	 */
	DISTLOCK_ANNOTATION_NO_RENEW("distlock-annotation-no-renew", "distlock @DistributedLocked(autoRenew = false)",
			(address) -> new DistlockAnnotationContender(address, false), Steps.MAIN_REDIS),

	/**
	 * Redisson with a lease time.
	 */
	REDISSON_LEASE("redisson-lease", "Redisson RLock, lease time",
			(address) -> new RedissonContender(address, false, null)),

	/**
	 * Redisson with its watchdog.
	 */
	REDISSON_WATCHDOG("redisson-watchdog", "Redisson RLock, watchdog",
			(address) -> new RedissonContender(address, true, null)),

	/**
	 * Spring Integration's {@code RedisLockRegistry} in its pub/sub mode.
	 */
	SPRING_INTEGRATION("spring-integration", "Spring Integration RedisLockRegistry, pub/sub",
			(address) -> new SpringIntegrationContender(address, Duration.ofSeconds(LockContender.LEASE_SECONDS),
					RedisLockType.PUB_SUB_LOCK, null)),

	/**
	 * Spring Integration's {@code RedisLockRegistry} in its spin mode (its default).
	 */
	SPRING_INTEGRATION_SPIN("spring-integration-spin", "Spring Integration RedisLockRegistry, spin",
			(address) -> new SpringIntegrationContender(address, Duration.ofSeconds(LockContender.LEASE_SECONDS),
					RedisLockType.SPIN_LOCK, null),
			Steps.DISTINCT_KEYS);

	private final String id;

	private final String label;

	private final Function<RedisAddress, LockContender> factory;

	private final List<String> steps;

	Contender(String id, String label, Function<RedisAddress, LockContender> factory) {
		this(id, label, factory, Steps.ALL);
	}

	Contender(String id, String label, Function<RedisAddress, LockContender> factory, List<String> steps) {
		this.id = id;
		this.label = label;
		this.factory = factory;
		this.steps = steps;
	}

	/**
	 * Return the id used in JMH parameters and result files.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the name shown in the report.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Create this contender on the given Redis.
	 * @param address the Redis
	 * @return the contender, to be closed
	 */
	public LockContender create(RedisAddress address) {
		return this.factory.apply(address);
	}

	/**
	 * Return the contender with the given id.
	 * @param id the id
	 * @return the contender
	 */
	public static Contender of(String id) {
		return Arrays.stream(values())
			.filter((contender) -> contender.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Unknown contender '" + id + "'"));
	}

	/**
	 * Return whether this contender runs in a step of the benchmark run. Every contender
	 * runs in every step but the variants added to answer one question, which run only
	 * where that question is asked, to keep the run's length in bounds.
	 * @param step the step: {@code uncontended}, {@code distinct-keys}, {@code one-key},
	 * {@code handoff} or {@code redis-7.0} (the uncontended and one-key scenarios on the
	 * second Redis)
	 * @return whether the contender runs in the step
	 */
	public boolean runsIn(String step) {
		return this.steps.isEmpty() || this.steps.contains(step);
	}

	/**
	 * Return the contenders that run in a step, in report order.
	 * @param step the step, see {@link #runsIn(String)}
	 * @return the contenders
	 */
	public static List<Contender> in(String step) {
		return Arrays.stream(values()).filter((contender) -> contender.runsIn(step)).toList();
	}

	/**
	 * The steps that the contenders of one question run in.
	 */
	private static final class Steps {

		/**
		 * Every step: the contenders of the published comparison.
		 */
		static final List<String> ALL = List.of();

		/**
		 * Every scenario on the main Redis and the handoff: the autoRenew-off variants,
		 * compared with one another.
		 */
		static final List<String> MAIN_REDIS = List.of("uncontended", "distinct-keys", "one-key", "handoff");

		/**
		 * Sixteen threads on distinct keys only.
		 */
		static final List<String> DISTINCT_KEYS = List.of("distinct-keys");

	}

}
