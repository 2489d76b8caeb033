package com.example.orders;

import io.distlock.annotation.DistributedLocked;

import org.springframework.stereotype.Service;

@Service
public class OrderService {

	@DistributedLocked(key = "'order:' + #orderId", ttl = "10s")
	public void pay(long orderId) {
		// One instance at a time runs this for a given order:
		// read the order, charge the customer, mark the order paid.
	}

}
