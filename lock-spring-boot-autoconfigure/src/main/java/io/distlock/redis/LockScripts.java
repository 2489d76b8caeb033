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

package io.distlock.redis;

import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the lock store, loaded once from the files beside this class. Spring
 * Data Redis runs them with EVALSHA and falls back to EVAL when Redis does not know them.
 */
final class LockScripts {

	@SuppressWarnings("rawtypes")
	static final RedisScript<List> ACQUIRE = load("acquire.lua", List.class);

	static final RedisScript<Long> RELEASE = load("release.lua", Long.class);

	static final RedisScript<Long> RENEW = load("renew.lua", Long.class);

	private LockScripts() {
	}

	private static <T> RedisScript<T> load(String name, Class<T> resultType) {
		return RedisScript.of(new ClassPathResource(name, LockScripts.class), resultType);
	}

}
