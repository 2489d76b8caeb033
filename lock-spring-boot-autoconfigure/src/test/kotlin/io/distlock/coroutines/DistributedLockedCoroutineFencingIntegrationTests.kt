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
import io.distlock.reactive.ReactiveLockHandle
import io.distlock.reactive.ReactiveLockTemplate
import io.distlock.test.RedisServerExtension
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.reactor.awaitSingleOrNull
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Service
import org.springframework.test.annotation.DirtiesContext
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource

/**
 * Integration tests for the lock of a [DistributedLocked] `suspend` function seen from
 * inside it, on a real redis-server: [ReactiveLockTemplate.currentLock] reads it from
 * the Reactor context, which kotlinx-coroutines-reactor carries along the coroutine
 * whatever thread it resumes on.
 */
@SpringBootTest(classes = [DistributedLockedCoroutineFencingIntegrationTests.TestApplication::class])
@DirtiesContext
class DistributedLockedCoroutineFencingIntegrationTests {

	@Autowired
	private lateinit var documents: FencedDocuments

	@Test
	fun fencingTokenIsVisibleInsideTheFunctionAndGrowsWithEachAcquisition(): Unit = runBlocking {
		// When
		val first = withTimeout(5.seconds) { documents.write() }
		val second = withTimeout(5.seconds) { documents.write() }

		// Then
		assertThat(first.key).isEqualTo("document")
		assertThat(second.token).isGreaterThan(first.token)
	}

	@Test
	fun lockIsVisibleAfterTheCoroutineResumedOnAnotherThread(): Unit = runBlocking {
		// When: the function suspends and resumes on another dispatcher's thread.
		val seen = withTimeout(5.seconds) { documents.writeAfterSwitchingThreads() }

		// Then: a thread-bound lookup would have lost the lock; the Reactor context did not.
		assertThat(seen.beforeSwitch).isNotNull()
		assertThat(seen.afterSwitch).isNotNull()
		assertThat(seen.afterSwitch!!.fencingToken()).isEqualTo(seen.beforeSwitch!!.fencingToken())
		assertThat(seen.threadAfterSwitch).isNotEqualTo(seen.threadBeforeSwitch)
	}

	@Test
	fun noLockIsVisibleOutsideALockedFunction(): Unit = runBlocking {
		assertThat(ReactiveLockTemplate.currentLock().awaitSingleOrNull()).isNull()
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(FencedDocuments::class)
	class TestApplication

	data class Written(val key: String, val token: Long)

	data class Seen(
		val beforeSwitch: ReactiveLockHandle?,
		val threadBeforeSwitch: Thread,
		val afterSwitch: ReactiveLockHandle?,
		val threadAfterSwitch: Thread,
	)

	@Service
	class FencedDocuments {

		@DistributedLocked(key = "document", ttl = "10s")
		suspend fun write(): Written {
			// A store would take the write only with a token above the last one it saw.
			val lock = ReactiveLockTemplate.currentLock().awaitSingle()
			return Written(lock.key(), lock.fencingToken())
		}

		@DistributedLocked(key = "switching", ttl = "10s")
		suspend fun writeAfterSwitchingThreads(): Seen {
			val before = ReactiveLockTemplate.currentLock().awaitSingleOrNull()
			val threadBefore = Thread.currentThread()
			return withContext(Dispatchers.IO) {
				delay(10.milliseconds)
				Seen(before, threadBefore, ReactiveLockTemplate.currentLock().awaitSingleOrNull(),
						Thread.currentThread())
			}
		}

	}

	companion object {

		@JvmField
		@RegisterExtension
		val redis: RedisServerExtension = RedisServerExtension.singleNode()

		@JvmStatic
		@DynamicPropertySource
		fun redisProperties(registry: DynamicPropertyRegistry) {
			registry.add("spring.data.redis.host") { redis.endpoint().host() }
			registry.add("spring.data.redis.port") { redis.endpoint().port() }
			registry.add("spring.data.redis.timeout") { "2s" }
		}

	}

}
