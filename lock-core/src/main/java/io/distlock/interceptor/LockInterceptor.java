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

package io.distlock.interceptor;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.distlock.LockContext;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.MultiLockRequest;
import io.distlock.annotation.LockFailurePolicy;
import io.distlock.reactive.ReactiveLockTemplate;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.util.Assert;
import org.springframework.util.function.SingletonSupplier;

/**
 * Runs a {@code @DistributedLocked} method under its lock: evaluates the key and hands
 * the invocation to
 * {@link LockTemplate#execute(LockRequest, io.distlock.LockCallback, io.distlock.LockBusyCallback)
 * LockTemplate.execute}, which holds the one release policy, re-enters a lock the thread
 * already holds, and releases the lock when the method ends. A method returning a
 * {@code CompletableFuture} or {@code CompletionStage} goes to
 * {@link LockTemplate#executeAsync(LockRequest, io.distlock.LockCallback, io.distlock.LockBusyCallback)
 * executeAsync} instead, which holds the lock until the returned stage completes. When
 * the lock stays busy the method does not run: the operation's failure policy throws (a
 * failed stage for an async method), skips or calls the fallback. A method returning a
 * {@code Mono} or {@code Flux}, and a Kotlin {@code suspend} function, is locked through
 * the {@link ReactiveLockTemplate} on subscription, without blocking: a busy lock then
 * gives an error signal (THROW) or an empty publisher (SKIP). A method with several
 * {@code keys} goes to
 * {@link LockTemplate#executeAll(MultiLockRequest, io.distlock.MultiLockCallback, io.distlock.LockBusyCallback)
 * executeAll}, which takes all of them or none.
 *
 * <p>
 * Once the application's singletons exist, it checks that the lock store can do what the
 * annotated methods ask of it: {@code fair = true} needs a store with fair mode,
 * {@code mode = READ} one with read locks, {@code permits} above 1 one with permits.
 */
public class LockInterceptor implements MethodInterceptor, BeanFactoryAware, SmartInitializingSingleton {

	private final LockOperationSource source;

	private final Supplier<LockTemplate> template;

	private final TransactionWarning transactionWarning = new TransactionWarning();

	private @Nullable Supplier<? extends @Nullable ReactiveLockTemplate> reactiveTemplate;

	private @Nullable BeanFactory beanFactory;

	private LockKeyEvaluator evaluator = new LockKeyEvaluator(new DefaultParameterNameDiscoverer(), null,
			DefaultConversionService.getSharedInstance());

	/**
	 * Create an interceptor. The template is looked up on the first locked call, so that
	 * creating the interceptor does not initialize Redis beans early.
	 * @param source the lock definitions of methods
	 * @param template supplies the template that takes the locks
	 */
	public LockInterceptor(LockOperationSource source, Supplier<LockTemplate> template) {
		this.source = source;
		this.template = template;
	}

	/**
	 * Set what supplies the template that locks reactive methods (returning {@code Mono}
	 * or {@code Flux}, and Kotlin {@code suspend} functions); looked up on the first such
	 * call and checked at startup. By default it is the bean factory's
	 * {@link ReactiveLockTemplate}, if there is one.
	 * @param reactiveTemplate supplies the reactive template, or {@code null} when the
	 * application has none
	 */
	public void setReactiveLockTemplate(Supplier<? extends @Nullable ReactiveLockTemplate> reactiveTemplate) {
		Assert.notNull(reactiveTemplate, "'reactiveTemplate' must not be null");
		this.reactiveTemplate = reactiveTemplate;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		ConversionService conversionService = (beanFactory instanceof ConfigurableBeanFactory configurable
				&& configurable.getConversionService() != null) ? configurable.getConversionService()
						: DefaultConversionService.getSharedInstance();
		this.evaluator = new LockKeyEvaluator(new DefaultParameterNameDiscoverer(), beanFactory, conversionService);
		this.beanFactory = beanFactory;
	}

	/**
	 * Fail the startup if a method asks for fair locks, read locks or permits and the
	 * lock store cannot take them, or a reactive method has no reactive template to lock
	 * it, naming every such method.
	 * @throws UnsupportedLockOperationException if the lock store cannot serve the
	 * methods
	 */
	@Override
	public void afterSingletonsInstantiated() {
		new LockStoreSupportCheck(this.source.getLockOperations()).check(this.template, this::findReactiveTemplate);
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		LockOperation operation = this.source.getLockOperation(invocation.getMethod(), targetClass);
		if (operation == null || target == null) {
			return invocation.proceed();
		}
		if (operation.multiKey()) {
			return invokeMultiKey(operation, invocation, target, targetClass);
		}
		String key = operation
			.lockKey(this.evaluator.evaluate(operation, invocation.getArguments(), target, targetClass));
		// Only a call that takes its lock releases it before the transaction commits; a
		// re-entered one leaves it to the outer call. Reactive locks are not bound to the
		// thread, whatever lock it holds.
		if (operation.reactive() ? LockContext.find(key) == null : this.template.get().findBoundLock(key) == null) {
			this.transactionWarning.warnIfInTransaction(operation);
		}
		LockRequest request = request(operation, key);
		if (operation.reactive()) {
			// Taken on subscription, held until the publisher terminates.
			return ReactiveLockInvocation.invoke(reactiveTemplate(), operation, request, invocation, target);
		}
		if (operation.async()) {
			// Held until the returned stage completes; a busy lock fails that stage
			// instead of throwing (THROW), or completes it empty (SKIP).
			return this.template.get()
				.executeAsync(request, (lock) -> stage(invocation.proceed()),
						(busy) -> (operation.onFailure() == LockFailurePolicy.THROW)
								? CompletableFuture.failedFuture(busy)
								: stage(BlockingLockFailure.handle(operation, busy, invocation, target)));
		}
		return this.template.get()
			.execute(request, (lock) -> invocation.proceed(),
					(busy) -> BlockingLockFailure.handle(operation, busy, invocation, target));
	}

	private @Nullable Object invokeMultiKey(LockOperation operation, MethodInvocation invocation, Object target,
			Class<?> targetClass) throws Throwable {
		List<String> keys = this.evaluator.evaluateAll(operation, invocation.getArguments(), target, targetClass);
		LockTemplate template = this.template.get();
		if (keys.stream().allMatch((key) -> template.findBoundLock(key) == null)) {
			this.transactionWarning.warnIfInTransaction(operation);
		}
		MultiLockRequest request;
		try {
			request = operation.toMultiLockRequest(keys);
		}
		catch (IllegalArgumentException ex) {
			throw LockKeyEvaluator.invalidKey(operation, operation.keys().get(0),
					"gave an invalid lock key: " + ex.getMessage(), ex);
		}
		return template.executeAll(request, (locks) -> invocation.proceed(),
				(busy) -> BlockingLockFailure.handle(operation, busy, invocation, target));
	}

	private ReactiveLockTemplate reactiveTemplate() {
		ReactiveLockTemplate template = findReactiveTemplate();
		Assert.state(template != null, "No ReactiveLockTemplate for reactive @DistributedLocked methods");
		return template;
	}

	private @Nullable ReactiveLockTemplate findReactiveTemplate() {
		if (this.reactiveTemplate == null) {
			// Looked up only for reactive methods, so only where Reactor is present.
			BeanFactory beanFactory = this.beanFactory;
			this.reactiveTemplate = (beanFactory != null)
					? SingletonSupplier
						.of(() -> beanFactory.getBeanProvider(ReactiveLockTemplate.class).getIfAvailable())
					: () -> null;
		}
		return this.reactiveTemplate.get();
	}

	@SuppressWarnings("unchecked")
	private static @Nullable CompletionStage<@Nullable Object> stage(@Nullable Object returned) {
		// The operation is async only for methods declared to return a CompletionStage.
		return (CompletionStage<@Nullable Object>) returned;
	}

	private static LockRequest request(LockOperation operation, String key) {
		try {
			return operation.toRequest(key);
		}
		catch (IllegalArgumentException ex) {
			throw LockKeyEvaluator.invalidKey(operation, "gave an invalid lock key: " + ex.getMessage(), ex);
		}
	}

}
