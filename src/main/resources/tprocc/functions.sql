-- TPROC-C's five business transactions as PL/pgSQL functions, one round trip per transaction as
-- HammerDB runs them on PostgreSQL. pgknob follows TPC-C where HammerDB departs from it:
--  * the customer's last name is a real parameter (HammerDB's function mode passes the literal
--    string '$8' / '$5', so its by-name lookups never find anyone);
--  * a new order with an invalid item raises SQLSTATE TPC01, which aborts the call's transaction:
--    the driver counts it as a business rollback (HammerDB carries on with a NULL price);
--  * the driver sends each order's lines sorted by (supply warehouse, item) so concurrent new
--    orders lock stock rows in one order and never deadlock.

CREATE FUNCTION neword(p_w_id integer, p_d_id integer, p_c_id integer, p_item_ids integer[],
                       p_supply_w_ids integer[], p_quantities integer[],
                       OUT out_o_id integer, OUT out_total numeric)
LANGUAGE plpgsql AS $$
DECLARE
  v_ol_cnt integer := cardinality(p_item_ids);
  v_all_local integer := 1;
  v_c_discount numeric;
  v_c_last varchar;
  v_c_credit char(2);
  v_w_tax numeric;
  v_d_tax numeric;
  v_i_price numeric;
  v_i_name varchar;
  v_i_data varchar;
  v_s_data varchar;
  v_s_dist char(24);
  v_amount numeric;
BEGIN
  SELECT c_discount, c_last, c_credit, w_tax
    INTO v_c_discount, v_c_last, v_c_credit, v_w_tax
    FROM customer, warehouse
   WHERE w_id = p_w_id AND c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  UPDATE district SET d_next_o_id = d_next_o_id + 1
   WHERE d_w_id = p_w_id AND d_id = p_d_id
   RETURNING d_next_o_id - 1, d_tax INTO out_o_id, v_d_tax;
  FOR i IN 1 .. v_ol_cnt LOOP
    IF p_supply_w_ids[i] <> p_w_id THEN
      v_all_local := 0;
    END IF;
  END LOOP;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local)
  VALUES (out_o_id, p_d_id, p_w_id, p_c_id, now(), v_ol_cnt, v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (out_o_id, p_d_id, p_w_id);
  out_total := 0;
  FOR i IN 1 .. v_ol_cnt LOOP
    SELECT i_price, i_name, i_data INTO v_i_price, v_i_name, v_i_data
      FROM item WHERE i_id = p_item_ids[i];
    IF NOT FOUND THEN
      RAISE EXCEPTION 'new order rolled back: item % does not exist', p_item_ids[i]
        USING ERRCODE = 'TPC01';
    END IF;
    UPDATE stock
       SET s_quantity = CASE WHEN s_quantity >= p_quantities[i] + 10
                             THEN s_quantity - p_quantities[i]
                             ELSE s_quantity - p_quantities[i] + 91 END,
           s_ytd = s_ytd + p_quantities[i],
           s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + CASE WHEN p_supply_w_ids[i] <> p_w_id THEN 1 ELSE 0 END
     WHERE s_i_id = p_item_ids[i] AND s_w_id = p_supply_w_ids[i]
     RETURNING s_data,
               CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                           WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
                           WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
                           ELSE s_dist_10 END
          INTO v_s_data, v_s_dist;
    v_amount := p_quantities[i] * v_i_price;
    out_total := out_total + v_amount;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_quantity, ol_amount, ol_dist_info)
    VALUES (out_o_id, p_d_id, p_w_id, i, p_item_ids[i], p_supply_w_ids[i], p_quantities[i],
            v_amount, v_s_dist);
  END LOOP;
  out_total := round(out_total * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax), 2);
END
$$;

-- The customer a by-name lookup selects (TPC-C 2.5.2.2): of the n customers with that last name in
-- the district, sorted by first name, the one at position ceil(n / 2).
CREATE FUNCTION tprocc_customer_by_name(p_w_id integer, p_d_id integer, p_c_last varchar)
RETURNS integer
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_count integer;
  v_c_id integer;
BEGIN
  SELECT count(*) INTO v_count
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
  IF v_count = 0 THEN
    RAISE EXCEPTION 'no customer named % in warehouse % district %', p_c_last, p_w_id, p_d_id;
  END IF;
  SELECT c_id INTO v_c_id
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
   ORDER BY c_first, c_id
  OFFSET (v_count - 1) / 2 LIMIT 1;
  RETURN v_c_id;
END
$$;

-- p_c_last NULL: by id (p_c_id); otherwise by last name. Returns the customer's id.
CREATE FUNCTION payment(p_w_id integer, p_d_id integer, p_c_w_id integer, p_c_d_id integer,
                        p_c_id integer, p_c_last varchar, p_amount numeric)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_w_name varchar;
  v_d_name varchar;
  v_c_id integer := p_c_id;
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount
   WHERE w_id = p_w_id RETURNING w_name INTO v_w_name;
  UPDATE district SET d_ytd = d_ytd + p_amount
   WHERE d_w_id = p_w_id AND d_id = p_d_id RETURNING d_name INTO v_d_name;
  IF p_c_last IS NOT NULL THEN
    v_c_id := tprocc_customer_by_name(p_c_w_id, p_c_d_id, p_c_last);
  END IF;
  UPDATE customer
     SET c_balance = c_balance - p_amount,
         c_ytd_payment = c_ytd_payment + p_amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data = CASE WHEN c_credit = 'BC'
                       THEN substr(format('%s %s %s %s %s %s | %s', c_id, c_d_id, c_w_id, p_d_id,
                                          p_w_id, p_amount, c_data), 1, 500)
                       ELSE c_data END
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'customer % not found in warehouse % district %', v_c_id, p_c_w_id, p_c_d_id;
  END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, now(), p_amount,
          v_w_name || '    ' || v_d_name);
  RETURN v_c_id;
END
$$;

-- p_c_last NULL: by id; otherwise by last name. Returns the customer, its latest order and how
-- many lines that order has (every line is read, as the transaction must).
CREATE FUNCTION ostat(p_w_id integer, p_d_id integer, p_c_id integer, p_c_last varchar,
                      OUT out_c_id integer, OUT out_balance numeric, OUT out_o_id integer,
                      OUT out_carrier_id integer, OUT out_lines integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_first varchar;
  v_middle char(2);
  v_last varchar;
  v_entry timestamptz;
  v_line record;
BEGIN
  out_c_id := p_c_id;
  IF p_c_last IS NOT NULL THEN
    out_c_id := tprocc_customer_by_name(p_w_id, p_d_id, p_c_last);
  END IF;
  SELECT c_balance, c_first, c_middle, c_last INTO out_balance, v_first, v_middle, v_last
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = out_c_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'customer % not found in warehouse % district %', out_c_id, p_w_id, p_d_id;
  END IF;
  SELECT o_id, o_carrier_id, o_entry_d INTO out_o_id, out_carrier_id, v_entry
    FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = out_c_id
   ORDER BY o_id DESC LIMIT 1;
  out_lines := 0;
  FOR v_line IN
    SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
      FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = out_o_id
  LOOP
    out_lines := out_lines + 1;
  END LOOP;
END
$$;

-- Delivers the oldest undelivered order of each of the warehouse's ten districts. A district whose
-- oldest order a concurrent delivery took first is skipped, as TPC-C allows. Returns how many
-- orders were delivered.
CREATE FUNCTION delivery(p_w_id integer, p_carrier_id integer)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_o_id integer;
  v_c_id integer;
  v_total numeric;
  v_delivered integer := 0;
BEGIN
  FOR v_d_id IN 1 .. 10 LOOP
    DELETE FROM new_order
     WHERE no_w_id = p_w_id AND no_d_id = v_d_id
       AND no_o_id = (SELECT min(no_o_id) FROM new_order
                       WHERE no_w_id = p_w_id AND no_d_id = v_d_id)
    RETURNING no_o_id INTO v_o_id;
    CONTINUE WHEN NOT FOUND;
    UPDATE orders SET o_carrier_id = p_carrier_id
     WHERE o_w_id = p_w_id AND o_d_id = v_d_id AND o_id = v_o_id
    RETURNING o_c_id INTO v_c_id;
    WITH delivered AS (
      UPDATE order_line SET ol_delivery_d = now()
       WHERE ol_w_id = p_w_id AND ol_d_id = v_d_id AND ol_o_id = v_o_id
      RETURNING ol_amount)
    SELECT coalesce(sum(ol_amount), 0) INTO v_total FROM delivered;
    UPDATE customer SET c_balance = c_balance + v_total, c_delivery_cnt = c_delivery_cnt + 1
     WHERE c_w_id = p_w_id AND c_d_id = v_d_id AND c_id = v_c_id;
    v_delivered := v_delivered + 1;
  END LOOP;
  RETURN v_delivered;
END
$$;

-- How many distinct items of the district's last 20 orders have less stock than the threshold.
CREATE FUNCTION slev(p_w_id integer, p_d_id integer, p_threshold integer)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_next_o_id integer;
  v_low integer;
BEGIN
  SELECT d_next_o_id INTO v_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT count(DISTINCT s_i_id) INTO v_low
    FROM order_line, stock
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id
     AND ol_o_id < v_next_o_id AND ol_o_id >= v_next_o_id - 20
     AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
  RETURN v_low;
END
$$;
