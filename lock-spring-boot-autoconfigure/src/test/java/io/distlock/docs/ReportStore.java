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

import io.distlock.LockMode;
import io.distlock.annotation.DistributedLocked;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The README's read/write lock: reports are read together, and rebuilt alone.
 */
public class ReportStore {

	private final StringRedisTemplate redis;

	public ReportStore(StringRedisTemplate redis) {
		this.redis = redis;
	}

	@DistributedLocked(name = "report", key = "#id", mode = LockMode.READ, ttl = "30s", waitTime = "10s")
	public String read(String id) {
		// Summary and body are written in two steps: read together, they always match.
		return this.redis.opsForValue().get("report:" + id + ":summary") + " / "
				+ this.redis.opsForValue().get("report:" + id + ":body");
	}

	@DistributedLocked(name = "report", key = "#id", mode = LockMode.WRITE, ttl = "30s", waitTime = "30s")
	public void rebuild(String id, int version) {
		this.redis.opsForValue().set("report:" + id + ":summary", "v" + version);
		this.redis.opsForValue().set("report:" + id + ":body", "v" + version);
	}

}
