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

import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicReference
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.launch
import kotlinx.coroutines.reactor.ReactorContext
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.aopalliance.intercept.MethodInterceptor
import org.aopalliance.intercept.MethodInvocation
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatIllegalStateException
import org.junit.jupiter.api.Test
import org.springframework.aop.framework.ProxyFactory
import reactor.core.publisher.Mono

/**
 * What Spring Framework's AOP does with a Kotlin `suspend` function, with no lock and no
 * Redis: the facts the `@DistributedLocked` support for coroutines builds on. With
 * kotlinx-coroutines-reactor on the class path, `invocation.proceed()` gives the
 * interceptor a lazy `Mono` of the function's result, and the proxy awaits the `Mono`
 * the interceptor returns, without blocking the caller's thread.
 */
class SuspendFunctionInterceptedAsMonoTests {

	private val target = Greeter()

	private val interceptor = WrappingInterceptor()

	// A class-based (CGLIB) proxy, as Spring Boot makes for a @Service.
	private val greeter = ProxyFactory(target).apply {
		isProxyTargetClass = true
		addAdvice(interceptor)
	}.proxy as Greeter

	@Test
	fun interceptorReceivesAMonoThatRunsTheFunctionOnlyWhenSubscribed(): Unit = runBlocking {
		val greeting = greeter.greet("Ada")

		assertThat(interceptor.proceeded.get()).isInstanceOf(Mono::class.java)
		// proceed() returned before the function body ran: the lock can be taken
		// without blocking, before subscribing.
		assertThat(interceptor.callsWhenProceedReturned.get()).isZero()
		assertThat(target.calls).hasValue(1)
		assertThat(interceptor.subscriptions).hasValue(1)
		assertThat(greeting).isEqualTo("Hello, Ada")
	}

	@Test
	fun exceptionOfTheFunctionReachesTheInterceptorAsTheMonosErrorAndTheCallerUnchanged() {
		val failure = IllegalStateException("boom")

		assertThatIllegalStateException().isThrownBy { runBlocking { greeter.fail(failure) } }
			.withMessage("boom")
			// kotlinx.coroutines' stack trace recovery (on with -ea, as under Surefire) may
			// rethrow a copy that has the original as its cause.
			.satisfiesAnyOf({ assertThat(it).isSameAs(failure) }, { assertThat(it.cause).isSameAs(failure) })
		assertThat(interceptor.error.get()).isSameAs(failure)
	}

	@Test
	fun reactorContextWrittenByTheInterceptorIsVisibleInsideTheFunction(): Unit = runBlocking {
		// How a lock handle put in the Reactor context by the interceptor reaches the
		// function body.
		assertThat(greeter.contextValue()).isEqualTo("written by the interceptor")
	}

	@Test
	fun cancellingTheCallerCancelsTheSubscriptionAndTheFunction(): Unit = runBlocking {
		val call = launch { greeter.waitForCancellation() }
		withTimeout(5.seconds) { target.started.await() }

		call.cancelAndJoin()

		// The interceptor sees the cancellation (where a lock is released), and the
		// function's own coroutine is cancelled too.
		assertThat(interceptor.cancelled).isTrue()
		withTimeout(5.seconds) { target.cancelled.await() }
	}

	open class Greeter {

		// Fields, not properties: a final getter cannot be proxied, and the test reads
		// them from the target anyway.
		@JvmField
		val calls = AtomicInteger()

		@JvmField
		val started = CompletableDeferred<Unit>()

		@JvmField
		val cancelled = CompletableDeferred<Unit>()

		open suspend fun greet(name: String): String {
			calls.incrementAndGet()
			// Suspends, so the result is really produced asynchronously.
			yield()
			return "Hello, $name"
		}

		open suspend fun fail(failure: Exception): String {
			yield()
			throw failure
		}

		open suspend fun contextValue(): String? =
			currentCoroutineContext()[ReactorContext]?.context?.getOrDefault<String>(CONTEXT_KEY, null)

		open suspend fun waitForCancellation(): String {
			started.complete(Unit)
			try {
				awaitCancellation()
			}
			finally {
				cancelled.complete(Unit)
			}
		}

	}

	/**
	 * Records what `proceed()` gives, and returns a `Mono` of its own around it, as a
	 * lock interceptor does.
	 */
	private inner class WrappingInterceptor : MethodInterceptor {

		val proceeded = AtomicReference<Any?>()

		val callsWhenProceedReturned = AtomicReference<Int>()

		val subscriptions = AtomicInteger()

		val error = AtomicReference<Throwable>()

		val cancelled = AtomicBoolean()

		override fun invoke(invocation: MethodInvocation): Any? {
			val result = invocation.proceed()
			proceeded.set(result)
			callsWhenProceedReturned.set(target.calls.get())
			val mono = result as Mono<*>
			return Mono.defer {
				subscriptions.incrementAndGet()
				mono
			}
				.doOnError(error::set)
				.doOnCancel { cancelled.set(true) }
				.contextWrite { it.put(CONTEXT_KEY, "written by the interceptor") }
		}

	}

	private companion object {

		const val CONTEXT_KEY = "test.key"

	}

}
