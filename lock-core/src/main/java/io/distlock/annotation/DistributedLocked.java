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

package io.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.distlock.LockMode;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Run the annotated method only while holding a distributed lock on Redis, taken before
 * the method starts and released when it ends, also when it throws.
 *
 * <pre class="code">
 * &#64;DistributedLocked(key = "#orderId", ttl = "10s")
 * public void pay(long orderId) { ... }
 * </pre>
 *
 * <p>
 * The Redis key is {@code <distlock.key-prefix><name>:<key>}, or
 * {@code <distlock.key-prefix><key>} without a name. The attributes are checked when the
 * bean is created: an unparsable key expression or duration, a negative duration, or a
 * missing fallback method fails the application's startup with a message naming the
 * class, the method and the attribute.
 *
 * <p>
 * Works through a Spring AOP proxy, like {@code @Transactional}: it applies to public
 * (and, with class-based proxies, protected and package-private) methods called from
 * another bean; a call from within the same object bypasses the proxy. By default the
 * lock is taken outside a {@code @Transactional} on the same method, so the next holder
 * sees committed data ({@code distlock.order}). A thread that already holds the lock
 * through an outer annotated call re-enters it without a second Redis round trip.
 *
 * <p>
 * On a method returning {@code CompletableFuture} or {@code CompletionStage}, the lock is
 * held until the returned stage completes (normally, exceptionally or by cancellation),
 * and a busy lock answers with a stage: failed with a {@code LockAcquisitionException}
 * ({@link LockFailurePolicy#THROW THROW}), completed with {@code null}
 * ({@link LockFailurePolicy#SKIP SKIP}), or the fallback method's. On an {@code @Async}
 * method returning {@code void} it fails the startup: that work runs after the method
 * returned, uncovered by the lock.
 *
 * <p>
 * Usable as a meta-annotation: attributes of a composed annotation override these through
 * {@link org.springframework.core.annotation.AliasFor @AliasFor}.
 *
 * <p>
 * In a native image, AOT processing registers the method, its fallback method (declared
 * in the same class or a superclass) and the properties of the argument types that a key
 * reads. Beans called from a key ({@code @keys.forOrder(#order)}) need reflection hints
 * of the application's own, as for any SpEL expression.
 *
 * @see io.distlock.LockContext#current()
 * @see io.distlock.LockTemplate
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(DistributedLockedReflectiveProcessor.class)
public @interface DistributedLocked {

	/**
	 * The lock key: a SpEL expression over the method's arguments, turned into a String.
	 * <p>
	 * Arguments by name ({@code #orderId}; needs the {@code -parameters} compiler flag,
	 * which is checked at startup) or position ({@code #p0}, {@code #a0}), their
	 * properties ({@code #order.customer.id}), string concatenation
	 * ({@code 'inv:' + #sku}), bean references ({@code @keys.forOrder(#order)}) and the
	 * root object ({@code #root.methodName}, {@code #root.targetClass},
	 * {@code #root.args}, {@code #root.target}). A key with no SpEL in it at all (no
	 * {@code #}, {@code @}, quote, parenthesis, {@code +}, {@code ?} or bracket), such as
	 * {@code "reports"}, is a literal.
	 * <p>
	 * Empty (the default) means one lock for the method: its {@link #name()}, or the
	 * fully qualified {@code com.example.ClassName.methodName} when there is no name. A
	 * key that evaluates to null, blank, a collection or an array fails the call with an
	 * {@link IllegalArgumentException} before the method runs.
	 * @return the key expression
	 */
	String key() default "";

	/**
	 * Several lock keys, all held while the method runs, instead of one {@link #key()}:
	 * {@code keys = {"#from.id", "#to.id"}}. Each element is a key expression as in
	 * {@link #key()}; an element whose value is a collection or an array contributes each
	 * of its elements ({@code keys = "#order.items.![sku]"}), and duplicates collapse.
	 * <p>
	 * All keys are taken or none: in one global order (their String order, whatever order
	 * the elements give), so that calls with overlapping keys never wait for each other
	 * in a cycle, and a call that finds one key busy gives back those it took before it
	 * waits again or gives up. {@link #name()} is put before each key. Combining it with
	 * {@link #key()}, {@link #fair()} or {@link #permits()} above 1 fails the startup, as
	 * does using it on a method returning a {@code CompletableFuture},
	 * {@code CompletionStage}, {@code Mono} or {@code Flux}, or on a {@code suspend}
	 * function. A call whose elements give no key at all fails with an
	 * {@link IllegalArgumentException} before the method runs.
	 * @return the key expressions, or empty for the single {@link #key()}
	 * @see io.distlock.LockTemplate#executeAll(io.distlock.MultiLockRequest,
	 * io.distlock.MultiLockCallback)
	 */
	String[] keys() default {};

	/**
	 * How the key is held: {@link LockMode#EXCLUSIVE} by default. {@link LockMode#READ}
	 * holders share the key with each other and exclude its {@link LockMode#WRITE} and
	 * exclusive holders (which are the same lock); a waiting writer keeps new readers
	 * out. {@code READ} with {@link #fair()} fails the startup; so does {@code READ} on a
	 * reactive or suspend method, or with a lock store that has no read locks (Redlock).
	 * @return the lock mode
	 */
	LockMode mode() default LockMode.EXCLUSIVE;

	/**
	 * How many callers may hold the key at once across all applications: 1 (the default)
	 * is the plain lock; {@code permits = 5} makes the key a concurrency limit of five,
	 * each holder with a lease of its own, renewed while held and returned after its ttl
	 * if its holder crashed. Less than 1, or more than 1 with a {@link #mode()} of
	 * {@code READ} or {@code WRITE}, with {@link #fair()} or with {@link #keys()}, fails
	 * the startup; so does more than 1 on a reactive or suspend method, or with a lock
	 * store that has no permits (Redlock).
	 * @return the number of permits
	 */
	int permits() default 1;

	/**
	 * An optional namespace put before the key: {@code orders} gives
	 * {@code lock:orders:<key>}.
	 * @return the lock name
	 */
	String name() default "";

	/**
	 * The lease time: how long the lock outlives a holder that crashed (or, with
	 * {@link #autoRenew()} off, how long it is held at most). Formats: {@code 10s},
	 * {@code 500ms}, {@code 2m}, {@code 1h}, {@code 1d}, ISO-8601 ({@code PT10S}), or a
	 * property placeholder such as {@code ${orders.lock-ttl}}. Empty means
	 * {@code distlock.default-ttl} (30 seconds unless configured). A number without a
	 * unit is milliseconds: {@code "10"} is 10ms, write {@code "10s"} for ten seconds. At
	 * most 365 days ({@link io.distlock.LockRequest#MAX_TTL}); at least 500ms
	 * ({@link io.distlock.LockRequest#MIN_RENEWED_TTL}) when the lease is renewed, the
	 * default, since it is renewed every third of its ttl and a shorter lease is lost at
	 * the first late renewal while the method still runs; at least 1ms with
	 * {@link #autoRenew()} off. A ttl out of range fails the startup, naming the method,
	 * the value and how it was read.
	 * @return the lease time
	 */
	String ttl() default "";

	/**
	 * How long to wait for a busy lock, in the same formats as {@link #ttl()}. {@code 0s}
	 * means try once. Empty means {@code distlock.default-wait-time} (0s unless
	 * configured). Any length that fits in a long of milliseconds is accepted; a wait of
	 * more than a hundred years waits as long as a hundred years.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * Whether the lease is renewed every third of the ttl while the method runs, so a
	 * long method keeps its lock; {@code true} by default. {@code false} gives a fixed
	 * lease that expires after the ttl even if the method still runs.
	 * @return whether the lease is renewed
	 */
	boolean autoRenew() default true;

	/**
	 * Whether waiting callers get the lock in the order they asked for it (a queue in
	 * Redis), instead of whoever retries first after a release; {@code false} by default.
	 * Fair locks cost a few more Redis operations per acquisition and are not supported
	 * with Redlock.
	 * @return whether the lock is fair
	 */
	boolean fair() default false;

	/**
	 * What happens when the lock stays busy for the whole wait time:
	 * {@link LockFailurePolicy#THROW throw} by default, or {@link LockFailurePolicy#SKIP
	 * skip} quietly (logged at DEBUG) on a method that is also {@code @Scheduled}, since
	 * another instance runs the job then. Setting a {@link #fallbackMethod()} implies
	 * {@link LockFailurePolicy#FALLBACK}. A policy given here wins over both defaults.
	 * @return the failure policy
	 */
	LockFailurePolicy onFailure() default LockFailurePolicy.DEFAULT;

	/**
	 * How long the lock stays held at least after it was acquired, even when the method
	 * returns sooner, in the same formats as {@link #ttl()}: a release before then
	 * shortens the lease to what remains of it (owner-checked) instead of deleting the
	 * lock; after it, the release is as usual. For a {@code @Scheduled} job that must run
	 * once per period across instances: {@code minHold} a little shorter than the period
	 * keeps an instance whose schedule fires a little later from running the job again.
	 * Empty (the default) means none. Longer than {@link #ttl()} with
	 * {@link #autoRenew()} off fails the startup, as does {@code minHold} with
	 * {@link #keys()} or on a reactive or suspend method.
	 * @return the minimum hold time
	 */
	String minHold() default "";

	/**
	 * The name of a method on the same bean, with the same parameter types and a
	 * compatible return type, called with the same arguments when the lock stays busy.
	 * @return the fallback method's name, or empty for none
	 */
	String fallbackMethod() default "";

}
