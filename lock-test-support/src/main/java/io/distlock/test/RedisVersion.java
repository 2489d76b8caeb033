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

package io.distlock.test;

/**
 * The version of the {@code redis-server} binary that {@link RedisServer} and
 * {@link RedisCluster} run, so tests can skip what an older server lacks:
 * <pre class="code">
 * assumeTrue(RedisVersion.majorVersion() &gt;= 7, "sharded pub/sub needs Redis 7");
 * </pre> The binary is the one named by {@code DISTLOCK_REDIS_SERVER} (or system property
 * {@code distlock.redis.server}), else the embedded one selected by
 * {@code DISTLOCK_REDIS_VERSION} (or system property {@code distlock.redis.version}):
 * {@code 7.0} by default, or {@code 6.2}.
 */
public final class RedisVersion {

	private RedisVersion() {
	}

	/**
	 * Return the major version of the binary the harness runs, such as {@code 7} for
	 * Redis 7.0.15; resolves (and if needed extracts) the binary without starting it.
	 * @return the major version
	 * @throws IllegalStateException if the configured binary or version is invalid
	 */
	public static int majorVersion() {
		return RedisBinary.resolve().majorVersion();
	}

}
