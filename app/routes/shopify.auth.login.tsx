import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { LoginErrorType, type LoginError } from "@shopify/shopify-app-remix/server";
import { useState } from "react";
import { shopifyLogin } from "~/shopify.server";

// Login for installs that start outside the Shopify admin: the library redirects a valid shop domain to
// Shopify's install page, or returns a field error.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

function loginErrors(result: LoginError): { shop?: string } {
  if (result.shop === LoginErrorType.MissingShop) return { shop: "Enter your shop domain to log in." };
  if (result.shop === LoginErrorType.InvalidShop) return { shop: "Enter a valid shop domain to log in." };
  return {};
}

// Rendered inside the Shopify admin with Polaris: no site chrome or site providers.
export const handle = { surface: "shopify", layout: false };

export async function loader({ request }: LoaderFunctionArgs) {
  return { errors: loginErrors(await shopifyLogin(request)) };
}

export async function action({ request }: ActionFunctionArgs) {
  return { errors: loginErrors(await shopifyLogin(request)) };
}

export default function ShopifyLogin() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const { errors } = actionData ?? loaderData;
  return (
    // Not embedded: no App Bridge script is rendered, so the API key is not needed here.
    <AppProvider isEmbeddedApp={false} apiKey="">
      <Page>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h2">
                Log in to Scanroom
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </AppProvider>
  );
}
