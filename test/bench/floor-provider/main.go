// A minimal provider written with HashiCorp's terraform-plugin-framework: one resource that stores what it is given
// and reads nothing. The refresh benchmark runs it beside rackform_bmc and terraform_data to show what the engine
// and a plugin process cost before any provider logic.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type floorProvider struct{}

func (p *floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "floor"
}
func (p *floorProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{}
}
func (p *floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}
func (p *floorProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &node{} }}
}
func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type node struct{}
type nodeModel struct {
	ID       types.String `tfsdk:"id"`
	Endpoint types.String `tfsdk:"endpoint"`
	GpuCount types.Int64  `tfsdk:"gpu_count"`
}

func (r *node) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "floor_node"
}
func (r *node) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":        schema.StringAttribute{Computed: true},
		"endpoint":  schema.StringAttribute{Required: true},
		"gpu_count": schema.Int64Attribute{Optional: true},
	}}
}
func (r *node) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m nodeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Endpoint
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
func (r *node) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}
func (r *node) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m nodeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Endpoint
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
func (r *node) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &floorProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/rackform/floor"})
	if err != nil {
		log.Fatal(err)
	}
}
