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

import org.jspecify.annotations.Nullable;

/**
 * One call of a lock script: the script with the keys and arguments of one operation.
 * {@link LockScriptCalls} builds it in one place for the blocking calls of
 * {@link RedisLockClient} and for {@link AsyncLockCalls}, so that both send exactly the
 * same command.
 *
 * @param <T> the reply type of the script
 * @param script the script
 * @param keys the script's keys
 * @param args the script's arguments
 */
record ScriptCall<T>(LockScript<T> script, List<String> keys, String[] args) {

	/**
	 * Run the call.
	 */
	@Nullable T run(ScriptRunner redis) {
		return redis.run(this.script, this.keys, this.args);
	}

}
