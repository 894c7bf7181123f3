/** `label.label.created.v1`: a merchant created a label; a carrier (or the sandbox) takes it from here. */
export interface LabelCreatedEvent {
  label_id: number;
  service_code: string;
  /** The carrier the service belongs to. */
  carrier_code: string | null;
}
