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

/**
 * The contenders of every scenario, in the order the report lists them.
 */
public enum Contender {

	/**
	 * Raw Lettuce, one connection, SET NX PX and EVALSHA compare-and-delete.
	 */
	LETTUCE_FLOOR("lettuce-floor", "floor: raw Lettuce", LettuceFloorContender::new),

	/**
	 * distlock's {@code LockTemplate}.
	 */
	DISTLOCK_TEMPLATE("distlock-template", "distlock LockTemplate", DistlockTemplateContender::new),

	/**
	 * distlock's {@code @DistributedLocked}.
	 */
	DISTLOCK_ANNOTATION("distlock-annotation", "distlock @DistributedLocked", DistlockAnnotationContender::new),

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
	 * Spring Integration's {@code RedisLockRegistry}.
	 */
	SPRING_INTEGRATION("spring-integration", "Spring Integration RedisLockRegistry",
			(address) -> new SpringIntegrationContender(address, Duration.ofSeconds(LockContender.LEASE_SECONDS),
					null));

	private final String id;

	private final String label;

	private final Function<RedisAddress, LockContender> factory;

	Contender(String id, String label, Function<RedisAddress, LockContender> factory) {
		this.id = id;
		this.label = label;
		this.factory = factory;
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
	 * Return the ids of all contenders.
	 * @return the ids
	 */
	public static List<String> ids() {
		return Arrays.stream(values()).map(Contender::id).toList();
	}

}
