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

import io.distlock.LockAcquisitionException
import io.distlock.LockTemplate
import io.distlock.annotation.DistributedLocked
import io.distlock.annotation.LockFailurePolicy
import io.distlock.test.RedisServerExtension
import java.time.Duration
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.Executors
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import java.util.concurrent.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.cancel
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.withTimeoutOrNull
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.assertj.core.api.Assertions.fail
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
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
 * Integration tests for [DistributedLocked] Kotlin `suspend` functions, on a real
 * redis-server: the lock is held for the coroutine's whole execution, across its
 * suspensions, and waiting for it suspends the caller instead of blocking a thread.
 */
@SpringBootTest(classes = [DistributedLockedCoroutineIntegrationTests.TestApplication::class])
@DirtiesContext
class DistributedLockedCoroutineIntegrationTests {

	@Autowired
	private lateinit var work: LockedWork

	@Autowired
	private lateinit var lockTemplate: LockTemplate

	// The callers run here rather than as children of the test's runBlocking: a caller
	// that fails must fail its own call, not cancel the test.
	private val callers = CoroutineScope(Dispatchers.Default + SupervisorJob())

	@BeforeEach
	fun resetOccupancy() {
		work.occupancy.reset()
	}

	@AfterEach
	fun cancelCallers() {
		callers.cancel()
	}

	@Test
	fun secondCallerCannotEnterWhileTheFirstCoroutinesWorkOutlastsTheTtl(): Unit = runBlocking {
		// Given: a first caller inside, its work suspended past the ttl of 1s.
		val first = callers.async { work.render("first", 3000) }
		await().atMost(Duration.ofSeconds(5)).until { work.occupancy.hasEntered("first") }
		delay(1500.milliseconds)
		// The lock outlived its ttl: it was renewed while the coroutine was suspended.
		assertHeld("lock:report")

		// When: a second caller asks for the same lock.
		val second = withTimeout(20.seconds) { work.render("second", 0) }

		// Then: it entered only after the first one had left.
		assertThat(second).isEqualTo("second")
		assertThat(withTimeout(10.seconds) { first.await() }).isEqualTo("first")
		assertThat(work.occupancy.maxInside).describedAs("most callers inside at once").hasValue(1)
		assertThat(work.occupancy.enteredAt("second")).isGreaterThan(work.occupancy.leftAt("first"))
		awaitReleased("lock:report")
	}

	@Test
	fun lockIsReleasedWhenTheFunctionReturns(): Unit = runBlocking {
		// Given: a call inside the function, suspended until its work is done.
		val entered = CompletableDeferred<Unit>()
		val result = CompletableDeferred<String>()
		val call = callers.async { work.pending("normal", entered, result) }
		withTimeout(5.seconds) { entered.await() }
		assertHeld("lock:normal")

		// When: the work completes.
		result.complete("done")

		// Then: the caller gets the value, and the lock is released.
		assertThat(withTimeout(5.seconds) { call.await() }).isEqualTo("done")
		awaitReleased("lock:normal")
	}

	@Test
	fun lockIsReleasedWhenTheFunctionThrowsAndTheExceptionReachesTheCaller(): Unit = runBlocking {
		// Given: a call inside the function, suspended until its work is done.
		val entered = CompletableDeferred<Unit>()
		val result = CompletableDeferred<String>()
		val call = callers.async { work.pending("failing", entered, result) }
		withTimeout(5.seconds) { entered.await() }
		assertHeld("lock:failing")

		// When: the work fails.
		val failure = IllegalStateException("failed")
		result.completeExceptionally(failure)

		// Then: the caller gets the exception, and the lock is released.
		val thrown = runCatching { withTimeout(5.seconds) { call.await() } }.exceptionOrNull()
		assertThat(thrown).isInstanceOf(IllegalStateException::class.java)
			.hasMessage("failed")
			// kotlinx.coroutines' stack trace recovery (on with -ea, as under Failsafe)
			// may rethrow a copy that has the original as its cause.
			.satisfiesAnyOf({ assertThat(it).isSameAs(failure) }, { assertThat(it?.cause).isSameAs(failure) })
		awaitReleased("lock:failing")
	}

	@Test
	fun lockIsReleasedWhenTheCoroutineIsCancelled(): Unit = runBlocking {
		// Given: a call inside the function, suspended on work that never completes.
		val entered = CompletableDeferred<Unit>()
		val never = CompletableDeferred<String>()
		val call = callers.async { work.pending("cancelled", entered, never) }
		withTimeout(5.seconds) { entered.await() }
		assertHeld("lock:cancelled")

		// When: the caller's coroutine is cancelled.
		call.cancel()

		// Then: the function's coroutine is cancelled, and the lock is released.
		withTimeout(5.seconds) { work.occupancy.cancelled.await() }
		assertThat(call.isCancelled).isTrue()
		awaitReleased("lock:cancelled")
	}

	@Test
	fun waitingCallersSuspendInsteadOfBlockingTheirThread() {
		// One thread for 50 callers of one lock. Were a waiting caller to block it, the
		// holder could never resume to finish and release: nothing would complete.
		val thread = Executors.newSingleThreadExecutor { Thread(it, "the-only-caller-thread").apply { isDaemon = true } }
		// Not children of the runBlocking below, so that a blocked thread makes the test
		// fail after the timeout instead of waiting for the callers' cancellation.
		val sharingOneThread = CoroutineScope(thread.asCoroutineDispatcher() + SupervisorJob())
		try {
			// Given: 50 callers contending for one key on that thread.
			val calls: List<Deferred<String>> = (1..50).map { n -> sharingOneThread.async { work.crowd("caller $n") } }

			// When: they all run.
			val results = runBlocking { withTimeoutOrNull(30.seconds) { calls.awaitAll() } }
				?: fail("50 callers of one lock did not complete within 30s on one thread: waiting blocks the thread")

			// Then: every one ran, one at a time.
			assertThat(results).hasSize(50).doesNotHaveDuplicates()
			assertThat(work.occupancy.maxInside).describedAs("most callers inside at once").hasValue(1)
			awaitReleased("lock:crowd")
		}
		finally {
			sharingOneThread.cancel()
			thread.shutdownNow()
		}
	}

	@Test
	fun busyLockWithThrowGivesTheCallerALockAcquisitionException() {
		// Given: the lock held elsewhere.
		lockTemplate.tryAcquire("busy", Duration.ofSeconds(10), Duration.ZERO).orElseThrow().use {
			// When / then
			assertThatExceptionOfType(LockAcquisitionException::class.java)
				.isThrownBy { runBlocking { withTimeout(5.seconds) { work.throwIfBusy("busy") } } }
		}
		assertThat(work.occupancy.hasEntered("busy")).isFalse()
	}

	@Test
	fun busyLockWithSkipReturnsNullWithoutRunningTheFunction(): Unit = runBlocking {
		// Given: the lock held elsewhere.
		lockTemplate.tryAcquire("skipped", Duration.ofSeconds(10), Duration.ZERO).orElseThrow().use {
			// When
			val result = withTimeout(5.seconds) { work.skipIfBusy("skipped") }

			// Then
			assertThat(result).isNull()
		}
		assertThat(work.occupancy.hasEntered("skipped")).isFalse()
	}

	private fun exists(key: String): Boolean = redis.endpoint().command("EXISTS", key) == 1L

	private fun assertHeld(key: String) {
		assertThat(exists(key)).describedAs("%s in Redis while the coroutine is inside", key).isTrue()
	}

	private fun awaitReleased(key: String) {
		await().atMost(Duration.ofSeconds(5)).until { !exists(key) }
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(LockedWork::class)
	class TestApplication

	@Service
	class LockedWork {

		val occupancy = Occupancy()

		@DistributedLocked(key = "report", ttl = "1s", waitTime = "30s")
		suspend fun render(name: String, workMillis: Long): String = occupancy.occupy(name) {
			delay(workMillis)
			name
		}

		@DistributedLocked(key = "#id", ttl = "1s")
		suspend fun pending(id: String, entered: CompletableDeferred<Unit>, result: Deferred<String>): String =
			occupancy.occupy(id) {
				entered.complete(Unit)
				result.await()
			}

		// Waits longer than the test does, so that a blocked thread fails the test with
		// its own message rather than with a caller's LockAcquisitionException.
		@DistributedLocked(key = "crowd", ttl = "1s", waitTime = "2m")
		suspend fun crowd(name: String): String = occupancy.occupy(name) {
			// Suspends while holding the lock, letting the others on the thread try.
			delay(10.milliseconds)
			name
		}

		@DistributedLocked(key = "#id", ttl = "10s", onFailure = LockFailurePolicy.THROW)
		suspend fun throwIfBusy(id: String): String = occupancy.occupy(id) { "ran" }

		@DistributedLocked(key = "#id", ttl = "10s", onFailure = LockFailurePolicy.SKIP)
		suspend fun skipIfBusy(id: String): String? = occupancy.occupy(id) { "ran" }

	}

	/**
	 * Who is inside the locked functions, when they entered and left, and how many were
	 * inside at once.
	 */
	class Occupancy {

		private val inside = AtomicInteger()

		val maxInside = AtomicInteger()

		private val entered = ConcurrentHashMap<String, Long>()

		private val left = ConcurrentHashMap<String, Long>()

		/** Completed when a function body sees its coroutine cancelled. */
		@Volatile
		var cancelled = CompletableDeferred<Unit>()
			private set

		suspend fun <T> occupy(name: String, body: suspend () -> T): T {
			entered[name] = System.nanoTime()
			maxInside.accumulateAndGet(inside.incrementAndGet(), ::maxOf)
			try {
				return body()
			}
			catch (ex: CancellationException) {
				cancelled.complete(Unit)
				throw ex
			}
			finally {
				left[name] = System.nanoTime()
				inside.decrementAndGet()
			}
		}

		fun hasEntered(name: String): Boolean = entered.containsKey(name)

		fun enteredAt(name: String): Long = entered.getValue(name)

		fun leftAt(name: String): Long = left.getValue(name)

		fun reset() {
			inside.set(0)
			maxInside.set(0)
			entered.clear()
			left.clear()
			cancelled = CompletableDeferred()
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
