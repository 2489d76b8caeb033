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

package io.distlock.coroutines

import io.distlock.annotation.DistributedLocked
import io.distlock.autoconfigure.DistLockAutoConfiguration
import io.distlock.autoconfigure.DistLockReactiveAutoConfiguration
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/**
 * Startup checks of `@DistributedLocked` on Kotlin functions: what a suspend function's
 * hidden Continuation parameter and a Flow return type ask of them, and what a final
 * Kotlin class is told.
 */
class SuspendFunctionStartupFailureTests {

	private val contextRunner = ApplicationContextRunner().withConfiguration(
		AutoConfigurations.of(DataRedisAutoConfiguration::class.java, DistLockAutoConfiguration::class.java,
			DistLockReactiveAutoConfiguration::class.java))

	@Test
	fun `positional key beyond the declared parameters of a suspend function is refused`() {
		// #p1 would be the Continuation: a different key on every call.
		contextRunner.withBean(PositionalKey::class.java).run { context ->
			assertThat(context).hasFailed()
			assertThat(context.startupFailure).rootCause()
				.hasMessageContaining("PositionalKey.work(java.lang.String,kotlin.coroutines.Continuation)")
				.hasMessageContaining("refers to #p1, but the method has 1 parameter")
		}
	}

	@Test
	fun `positional key of a declared parameter of a suspend function is accepted`() {
		contextRunner.withBean(FirstPositionalKey::class.java).run { context ->
			assertThat(context).hasNotFailed()
		}
	}

	@Test
	fun `flow returned by a function that is not suspend is refused`() {
		contextRunner.withBean(PlainFlow::class.java).run { context ->
			assertThat(context).hasFailed()
			assertThat(context.startupFailure).rootCause()
				.hasMessageContaining("PlainFlow.work()")
				.hasMessageContaining("returns a Flow without being a suspend function")
		}
	}

	@Test
	fun `final function of a Kotlin class is refused with the kotlin-spring hint`() {
		// Neither open nor annotated with anything the kotlin-spring plugin opens.
		contextRunner.withBean(FinalKotlinClass::class.java).run { context ->
			assertThat(context).hasFailed()
			assertThat(context.startupFailure).rootCause()
				.hasMessageContaining("FinalKotlinClass.work()")
				.hasMessageContaining("the method is final")
				.hasMessageContaining("It is a Kotlin class")
				.hasMessageContaining("apply the kotlin-spring (all-open) compiler plugin")
				.hasMessageContaining("declare the class and the method open")
		}
	}

	class FinalKotlinClass {

		@DistributedLocked(key = "k")
		fun work(): String = "done"

	}

	open class PositionalKey {

		@DistributedLocked(key = "#p1")
		open suspend fun work(id: String): String = id

	}

	open class FirstPositionalKey {

		@DistributedLocked(key = "#p0")
		open suspend fun work(id: String): String = id

	}

	open class PlainFlow {

		@DistributedLocked(key = "k")
		open fun work(): Flow<String> = flowOf("done")

	}

}
