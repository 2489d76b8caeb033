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

package io.distlock.sample.shop;

import java.net.URI;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a request whose lock could not be taken with an RFC 9457 problem detail, for
 * every controller: {@code 409 Conflict} when another caller held the lock for the whole
 * wait time (the same request may succeed later), {@code 503 Service Unavailable} when
 * the lock store itself failed (Redis down, or slower than its command timeout). Without
 * it, both would be a bare {@code 500}.
 * <p>
 * Neither answer names the lock key, as keys are often customer or order ids; the problem
 * {@code type} tells the two apart from other conflicts, such as a sold-out product. The
 * backend failure is logged with its cause for the operator.
 */
@RestControllerAdvice
public class LockExceptionHandler {

	/**
	 * The problem type of a lock that stayed busy.
	 */
	public static final URI LOCK_BUSY = URI
		.create("https://github.com/distlock/distlock/blob/main/sample-app/README.md#lock-busy");

	/**
	 * The problem type of a lock store that failed.
	 */
	public static final URI LOCK_BACKEND_UNAVAILABLE = URI
		.create("https://github.com/distlock/distlock/blob/main/sample-app/README.md#lock-backend-unavailable");

	private static final Log logger = LogFactory.getLog(LockExceptionHandler.class);

	@ExceptionHandler
	ProblemDetail lockBusy(LockAcquisitionException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
				"Another request holds the lock on this resource; try again later");
		problem.setType(LOCK_BUSY);
		problem.setTitle("Lock busy");
		return problem;
	}

	@ExceptionHandler
	ProblemDetail lockBackendUnavailable(LockBackendException ex) {
		logger.warn("Answered 503: the lock store failed", ex);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"The lock store is unavailable; try again later");
		problem.setType(LOCK_BACKEND_UNAVAILABLE);
		problem.setTitle("Lock backend unavailable");
		return problem;
	}

}
